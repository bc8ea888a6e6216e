void abs_diff(int *restrict d, const int *restrict a, const int *restrict b, long n) {
  for (long i = 0; i < n; i++) { int t = a[i] - b[i]; d[i] = t < 0 ? -t : t; }
}
