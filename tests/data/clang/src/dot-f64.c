double dot_f64(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
