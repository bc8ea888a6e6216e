# a scalar FP add recurrence beside a multiply
fadd	d0, d0, d1
fmul	d2, d2, d3
