/* Small loop kernels written for the forms corpus (scripts/mca-corpus/gather-forms.sh):
   narrow-integer dot products and sums, unsigned 64-bit min/max, compares that
   must respect NaN, overflow-checked selects, loops the vectorisers have to guard
   with alias checks or early exits, and a few x86 intrinsics behind target
   attributes, so that every -march/-mcpu of forms.py compiles this file. */
#include <stddef.h>
#include <stdint.h>

int32_t dot_s8(const int8_t *a, const int8_t *b, size_t n) {
  int32_t s = 0;
  for (size_t i = 0; i < n; i++) s += (int32_t)a[i] * b[i];
  return s;
}

uint32_t dot_u8(const uint8_t *a, const uint8_t *b, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s += (uint32_t)a[i] * b[i];
  return s;
}

int64_t dot_s16(const int16_t *a, const int16_t *b, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += (int32_t)a[i] * b[i];
  return s;
}

uint32_t sad_u8(const uint8_t *a, const uint8_t *b, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  return s;
}

uint64_t max_u64(const uint64_t *a, size_t n) {
  uint64_t m = 0;
  for (size_t i = 0; i < n; i++) m = a[i] > m ? a[i] : m;
  return m;
}

void min_u64_pairs(uint64_t *d, const uint64_t *a, const uint64_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = a[i] < b[i] ? a[i] : b[i];
}

void clamp_i64(int64_t *d, size_t n, int64_t lo, int64_t hi) {
  for (size_t i = 0; i < n; i++) d[i] = d[i] < lo ? lo : d[i] > hi ? hi : d[i];
}

/* !(x >= y) is true for NaN too: the unordered-or-less compare predicates */
size_t count_not_ge(const double *x, const double *y, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += !(x[i] >= y[i]);
  return k;
}

void select_not_gt(float *d, const float *x, const float *y, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = !(x[i] > y[i]) ? x[i] : y[i];
}

long add_or_saturate(long a, long b) {
  long r;
  return __builtin_add_overflow(a, b, &r) ? (a < 0 ? INT64_MIN : INT64_MAX) : r;
}

long mul_or_zero(long a, long b) {
  long r;
  return __builtin_mul_overflow(a, b, &r) ? 0 : r;
}

int sub_overflows(int a, int b) {
  int r;
  return __builtin_sub_overflow(a, b, &r);
}

/* no restrict: the vectorised loop needs a run-time overlap check */
void shift_add(int32_t *d, const int32_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = s[i] + 1;
}

void blend_bytes(uint8_t *d, const uint8_t *s, const uint8_t *m, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = (uint8_t)((d[i] & ~m[i]) | (s[i] & m[i]));
}

/* early exit: search loops */
size_t find_byte(const uint8_t *p, size_t n, uint8_t c) {
  for (size_t i = 0; i < n; i++)
    if (p[i] == c) return i;
  return n;
}

size_t first_negative(const int32_t *p, size_t n) {
  size_t i = 0;
  while (i < n && p[i] >= 0) i++;
  return i;
}

size_t pack_positive(int32_t *d, const int32_t *s, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] > 0) d[k++] = s[i];
  return k;
}

void spread_positive(int32_t *d, const int32_t *s, const int32_t *m, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (m[i]) d[i] = s[k++];
}

void cadd_rot(int64_t *re, int64_t *im, const int64_t *bre, const int64_t *bim, size_t n) {
  /* (re + i im) + i (bre + i bim) */
  for (size_t i = 0; i < n; i++) {
    int64_t r = re[i] - bim[i], m = im[i] + bre[i];
    re[i] = r;
    im[i] = m;
  }
}

void widen_mul_u32(uint64_t *d, const uint32_t *a, const uint32_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = (uint64_t)a[i] * b[i];
}

void narrow_sat_i16(int8_t *d, const int16_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = (int8_t)(s[i] > 127 ? 127 : s[i] < -128 ? -128 : s[i]);
}

#ifdef __FLT16_MAX__
void half_to_float(float *d, const _Float16 *s, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = (float)s[i];
}
#endif

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("aes,sse4.1"))) __m128i aes_key_step(__m128i k) {
  __m128i t = _mm_aeskeygenassist_si128(k, 1);
  t = _mm_shuffle_epi32(t, 0xff);
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  return _mm_xor_si128(k, t);
}

__attribute__((target("avx512f,avx512ifma,avx512vl"))) __m512i madd52(__m512i a, __m512i b, __m512i c) {
  return _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(a, b, c), b, c);
}

__attribute__((target("avx512f,avx512vl"))) __m512i expand_d(__mmask16 k, __m512i v) {
  return _mm512_maskz_expand_epi32(k, v);
}

__attribute__((target("avx512f,avx512vl"))) __m512i compress_q(__mmask8 k, __m512i v, __m512i w) {
  return _mm512_mask_compress_epi64(w, k, v);
}

__attribute__((target("avx512f,avx512bw,avx512dq"))) __mmask32 mask_mix(__mmask32 a, __mmask32 b, __mmask32 c) {
  return _kor_mask32(_kxor_mask32(a, b), _kandn_mask32(c, a));
}

__attribute__((target("avx512f,avx512vl"))) __m256i max_epu64(__m256i a, __m256i b) {
  return _mm256_max_epu64(a, b);
}

__attribute__((target("pclmul,sse4.1"))) __m128i clmul_fold(__m128i a, __m128i k) {
  return _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11));
}

__attribute__((target("sha,sse4.1"))) __m128i sha256_two_rounds(__m128i s0, __m128i s1, __m128i m) {
  return _mm_sha256rnds2_epu32(s0, s1, m);
}
#endif
