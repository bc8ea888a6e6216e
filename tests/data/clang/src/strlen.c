long my_strlen(const char *s) {
  long n = 0;
  while (s[n]) n++;
  return n;
}
