void matvec(double *restrict y, const double *restrict a, const double *restrict x, long n) {
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (long j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
}
