# shift, multiply, FP add and a loop test
lsl	x1, x1, #2
mul	x2, x2, x1
fadd	d0, d0, d1
cmp	x1, #64
b.ne	.Lloop
