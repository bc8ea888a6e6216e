/* Small functions written for the forms corpus (scripts/mca-corpus/gather-forms.sh):
   bit and string operations, switch tables, calls, prologues and epilogues,
   atomics, 128-bit arithmetic, conversions, GNU vector extensions. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int popc32(uint32_t x) { return __builtin_popcount(x); }
int popc64(uint64_t x) { return __builtin_popcountll(x); }
int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
int ctz64(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
uint32_t bswap32(uint32_t x) { return __builtin_bswap32(x); }
uint64_t bswap64(uint64_t x) { return __builtin_bswap64(x); }
uint16_t bswap16(uint16_t x) { return __builtin_bswap16(x); }
uint32_t rotl32(uint32_t x, int r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
uint64_t rotr64(uint64_t x, int r) { return (x >> (r & 63)) | (x << ((64 - r) & 63)); }
uint32_t blsr(uint32_t x) { return x & (x - 1); }
uint64_t blsi(uint64_t x) { return x & -x; }
uint32_t andn(uint32_t a, uint32_t b) { return ~a & b; }
uint64_t bextr(uint64_t x, int s, int n) { return (x >> s) & ((1ull << n) - 1); }
int parity(uint64_t x) { return __builtin_parityll(x); }
uint32_t rev_bits(uint32_t x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return bswap32(x);
}
int8_t sat_add8(int8_t a, int8_t b) { int s = a + b; return s > 127 ? 127 : s < -128 ? -128 : s; }
uint8_t usat_sub8(uint8_t a, uint8_t b) { return a > b ? a - b : 0; }
int32_t abs32(int32_t a) { return a < 0 ? -a : a; }
int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
uint32_t umax32(uint32_t a, uint32_t b) { return a > b ? a : b; }
int sel(int c, int a, int b) { return c ? a : b; }
int64_t sdiv7(int64_t a) { return a / 7; }
uint32_t udiv10(uint32_t a) { return a / 10; }
int32_t smod(int32_t a, int32_t b) { return a % b; }
uint64_t udivv(uint64_t a, uint64_t b) { return a / b; }

typedef unsigned __int128 u128;
u128 mul64x64(uint64_t a, uint64_t b) { return (u128)a * b; }
uint64_t mulhi(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) >> 64); }
u128 add128(u128 a, u128 b) { return a + b; }
u128 shl128(u128 a, int s) { return a << s; }
int add_overflow(int a, int b, int *r) { return __builtin_add_overflow(a, b, r); }
int mul_overflow(long a, long b, long *r) { return __builtin_mul_overflow(a, b, r); }

size_t my_strlen(const char *s) { const char *p = s; while (*p) p++; return p - s; }
int my_strcmp(const char *a, const char *b) {
  while (*a && *a == *b) { a++; b++; }
  return (unsigned char)*a - (unsigned char)*b;
}
void *my_memset(void *d, int c, size_t n) { unsigned char *p = d; while (n--) *p++ = (unsigned char)c; return d; }
void copy_struct(struct { long a[9]; } *d, const struct { long a[9]; } *s) { memcpy(d, s, sizeof *d); }
void to_upper(char *s, size_t n) { for (size_t i = 0; i < n; i++) if (s[i] >= 'a' && s[i] <= 'z') s[i] -= 32; }
int count_char(const char *s, size_t n, char c) { int k = 0; for (size_t i = 0; i < n; i++) k += s[i] == c; return k; }
uint32_t hash_fnv(const unsigned char *p, size_t n) { uint32_t h = 2166136261u; while (n--) h = (h ^ *p++) * 16777619u; return h; }
uint32_t crc32_sw(const unsigned char *p, size_t n) {
  uint32_t c = ~0u;
  while (n--) { c ^= *p++; for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & -(c & 1)); }
  return ~c;
}

int dispatch(int op, int a, int b) {
  switch (op) {
  case 0: return a + b;  case 1: return a - b;  case 2: return a * b;
  case 3: return b ? a / b : 0;  case 4: return a & b;  case 5: return a | b;
  case 6: return a ^ b;  case 7: return a << (b & 31);  case 8: return a >> (b & 31);
  case 9: return a < b;  case 10: return a == b;  case 11: return ~a;
  default: return -1;
  }
}
const char *name_of(unsigned k) {
  switch (k) { case 0: return "zero"; case 1: return "one"; case 2: return "two"; case 3: return "three";
  case 4: return "four"; case 5: return "five"; case 6: return "six"; default: return "many"; }
}

extern void sink(void *p, ...);
extern double ext_f(double);
long many_args(long a, long b, long c, long d, long e, long f, long g, long h, double x, double y) {
  char buf[256];
  sink(buf, a, b, c, d, e, f, g, h, x, y);
  return a + h + (long)(x * y) + buf[3];
}
double call_chain(double x) { return ext_f(ext_f(x) + 1.0) * 2.0; }
int sum_va(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
void big_frame(int n) { volatile char a[n]; a[0] = 1; sink((void *)a); }
int recurse(int n) { return n <= 1 ? 1 : n * recurse(n - 1) + recurse(n - 2); }

int atomic_inc(int *p) { return __atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST); }
long atomic_xchg(long *p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
int atomic_cas(int *p, int e, int d) { return __atomic_compare_exchange_n(p, &e, d, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); }
long atomic_load_acq(long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
void atomic_store_rel(long *p, long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
unsigned atomic_or(unsigned *p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
void fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

double i2d(long x) { return (double)x; }
float u2f(unsigned x) { return (float)x; }
long d2i(double x) { return (long)x; }
unsigned long f2u(float x) { return (unsigned long)x; }
float d2f(double x) { return (float)x; }
double f2d(float x) { return x; }
double fma_d(double a, double b, double c) { return fma(a, b, c); }
float sqrt_f(float a) { return sqrtf(a); }
double floor_d(double a) { return floor(a); }
double round_d(double a) { return round(a); }
float trunc_f(float a) { return truncf(a); }
double copysign_d(double a, double b) { return copysign(a, b); }
double fmin_d(double a, double b) { return fmin(a, b); }
int fcmp(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }
#if defined(__FLT16_MAX__)
_Float16 h_add(_Float16 a, _Float16 b) { return a + b; }
#endif
double complex_abs2(double _Complex z) { return __real__ z * __real__ z + __imag__ z * __imag__ z; }

typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
typedef short v8s __attribute__((vector_size(16)));
typedef unsigned char v16u8 __attribute__((vector_size(16)));
typedef long v8l __attribute__((vector_size(64)));
v4f vmadd(v4f a, v4f b, v4f c) { return a * b + c; }
v4i vshuf(v4i a, v4i b) { return __builtin_shufflevector(a, b, 0, 5, 2, 7); }
v4i vcmp(v4f a, v4f b) { return a < b; }
v4d vdiv(v4d a, v4d b) { return a / b; }
v8s vmul16(v8s a, v8s b) { return a * b; }
v16u8 vavg(v16u8 a, v16u8 b) { return (v16u8)(((__typeof__(a))(a >> 1)) + (b >> 1)); }
v8l vadd512(v8l a, v8l b) { return a + b ^ (b >> 3); }
v4i vmin(v4i a, v4i b) { v4i m = a < b; return (a & m) | (b & ~m); }
float hsum(v4f a) { return a[0] + a[1] + a[2] + a[3]; }

void saxpy(float *restrict y, const float *restrict x, float a, int n) { for (int i = 0; i < n; i++) y[i] += a * x[i]; }
double dot(const double *a, const double *b, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
void u8_to_f(float *restrict d, const uint8_t *restrict s, int n) { for (int i = 0; i < n; i++) d[i] = s[i] * (1.0f / 255); }
void clamp16(int16_t *restrict d, const int32_t *restrict s, int n) {
  for (int i = 0; i < n; i++) { int v = s[i] >> 4; d[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v; }
}
int32_t sad(const uint8_t *a, const uint8_t *b, int n) { int32_t s = 0; for (int i = 0; i < n; i++) s += abs(a[i] - b[i]); return s; }
void gather(float *restrict d, const float *restrict s, const int *restrict idx, int n) { for (int i = 0; i < n; i++) d[i] = s[idx[i]]; }
void cond_store(int *restrict d, const int *restrict s, int n) { for (int i = 0; i < n; i++) if (s[i] > 0) d[i] = s[i]; }
int64_t widen_sum(const int32_t *a, int n) { int64_t s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
void interleave(float *restrict d, const float *restrict re, const float *restrict im, int n) {
  for (int i = 0; i < n; i++) { d[2 * i] = re[i]; d[2 * i + 1] = im[i]; }
}
uint8_t max_u8(const uint8_t *a, int n) { uint8_t m = 0; for (int i = 0; i < n; i++) m = a[i] > m ? a[i] : m; return m; }
void mat4(float *restrict c, const float *restrict a, const float *restrict b) {
  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) { float s = 0; for (int k = 0; k < 4; k++) s += a[4 * i + k] * b[4 * k + j]; c[4 * i + j] = s; }
}
void dexp(double *restrict d, const double *restrict s, int n) { for (int i = 0; i < n; i++) d[i] = exp(s[i]) + sin(s[i]); }
void i16_dot(int32_t *restrict d, const int16_t *restrict a, const int16_t *restrict b, int n) {
  for (int i = 0; i < n; i++) d[i / 8] += a[i] * b[i];
}
