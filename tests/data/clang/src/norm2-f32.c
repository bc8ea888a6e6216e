float norm2_f32(const float *a, long n) {
  float s = 0;
  for (long i = 0; i < n; i++) s += a[i] * a[i];
  return s;
}
