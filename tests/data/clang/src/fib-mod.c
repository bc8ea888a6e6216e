unsigned long lcg(unsigned long x, long n) {
  for (long i = 0; i < n; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x;
}
