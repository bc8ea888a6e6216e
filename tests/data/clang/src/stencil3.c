void stencil3(float *restrict out, const float *restrict in, long n) {
  for (long i = 1; i + 1 < n; i++) out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}
