long sum_i64(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; i++) s += a[i];
  return s;
}
