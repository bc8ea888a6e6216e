void scale_i32(int *restrict a, int k, long n) {
  for (long i = 0; i < n; i++) a[i] = a[i] * k + 7;
}
