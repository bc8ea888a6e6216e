# two accumulators with folded loads
vfmadd231pd	(%rsi,%rax), %ymm1, %ymm0
vfmadd231pd	32(%rsi,%rax), %ymm2, %ymm3
addq	$64, %rax
cmpq	%rcx, %rax
jne	.Lloop
