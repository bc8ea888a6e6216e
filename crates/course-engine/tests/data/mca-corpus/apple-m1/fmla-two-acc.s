# one load feeding two accumulators
ldr	q1, [x0, x8]
fmla	v0.2d, v1.2d, v1.2d
fmla	v3.2d, v1.2d, v1.2d
add	x8, x8, #16
cmp	x8, x9
b.ne	.Lloop
