void gather2(long *restrict d, const long *restrict s, long n) {
  for (long i = 0; i < n; i++) d[i] = s[2 * i];
}
