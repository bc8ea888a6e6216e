# an add recurrence with a loop test on a three-wide core
add	x0, x0, #1
add	x1, x1, x0
cmp	x0, x2
b.ne	.Lloop
