int max_i32(const int *a, long n) {
  int m = a[0];
  for (long i = 1; i < n; i++) m = a[i] > m ? a[i] : m;
  return m;
}
