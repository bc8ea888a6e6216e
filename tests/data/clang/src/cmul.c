void cmul(double *restrict re, double *restrict im, const double *restrict ar, const double *restrict ai,
          const double *restrict br, const double *restrict bi, long n) {
  for (long i = 0; i < n; i++) {
    re[i] = ar[i] * br[i] - ai[i] * bi[i];
    im[i] = ar[i] * bi[i] + ai[i] * br[i];
  }
}
