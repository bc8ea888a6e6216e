# FP multiply-add accumulating through its addend
fmadd	d0, d1, d2, d0
fmadd	d3, d4, d5, d3
