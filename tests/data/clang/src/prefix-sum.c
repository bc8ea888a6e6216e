void prefix_sum(long *restrict out, const long *restrict in, long n) {
  long s = 0;
  for (long i = 0; i < n; i++) { s += in[i]; out[i] = s; }
}
