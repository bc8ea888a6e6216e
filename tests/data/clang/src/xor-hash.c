unsigned long xor_hash(const unsigned char *s, long n) {
  unsigned long h = 1469598103934665603UL;
  for (long i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211UL;
  return h;
}
