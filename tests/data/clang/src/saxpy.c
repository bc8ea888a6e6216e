void saxpy(float *restrict y, const float *restrict x, float a, long n) {
  for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
