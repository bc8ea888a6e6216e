void daxpy(double *restrict y, const double *restrict x, double a, long n) {
  for (long i = 0; i < n; i++) y[i] += a * x[i];
}
