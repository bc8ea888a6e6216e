struct node { struct node *next; long v; };
long list_sum(const struct node *p) {
  long s = 0;
  for (; p; p = p->next) s += p->v;
  return s;
}
