# immediate shifts on the shifter pipes with a loop test
lsl	x1, x1, #1
lsr	x2, x2, #1
asr	x3, x3, #2
add	x4, x4, #1
cmp	x4, x5
b.ne	.Lloop
