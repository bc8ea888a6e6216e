void histogram(unsigned *restrict h, const unsigned char *restrict v, long n) {
  for (long i = 0; i < n; i++) h[v[i]]++;
}
