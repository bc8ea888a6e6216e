# a chain of immediate adds, a compare and a branch
add	x0, x0, #1
add	x0, x0, #1
add	x0, x0, #1
cmp	x0, #100
b.ne	.Lloop
