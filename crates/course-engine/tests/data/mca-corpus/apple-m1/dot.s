# the AArch64 dot-product box of Lesson 23.1 §7
ldr	q1, [x0, x8]
ldr	q2, [x1, x8]
fmla	v0.2d, v1.2d, v2.2d
add	x8, x8, #16
cmp	x8, x9
b.ne	.Lloop
