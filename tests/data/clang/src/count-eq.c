long count_eq(const int *a, int key, long n) {
  long c = 0;
  for (long i = 0; i < n; i++) c += a[i] == key;
  return c;
}
