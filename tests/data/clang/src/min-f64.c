double min_f64(const double *a, long n) {
  double m = a[0];
  for (long i = 1; i < n; i++) m = a[i] < m ? a[i] : m;
  return m;
}
