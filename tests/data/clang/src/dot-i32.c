int dot_i32(const int *a, const int *b, long n) {
  int s = 0;
  for (long i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
