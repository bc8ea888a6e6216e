float sum_f32(const float *a, long n) {
  float s = 0;
  for (long i = 0; i < n; i++) s += a[i];
  return s;
}
