void div_f64(double *restrict y, const double *restrict a, const double *restrict b, long n) {
  for (long i = 0; i < n; i++) y[i] = a[i] / b[i];
}
