void horner(double *restrict y, const double *restrict x, long n) {
  for (long i = 0; i < n; i++) {
    double t = x[i];
    y[i] = ((1.5 * t + 2.0) * t - 3.0) * t + 4.0;
  }
}
