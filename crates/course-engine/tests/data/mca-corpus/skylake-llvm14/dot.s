# the x86 dot-product box of Lesson 23.1 §7 (a folded load)
vmovupd	(%rdi,%rax), %ymm1
vfmadd231pd	(%rsi,%rax), %ymm1, %ymm0
addq	$32, %rax
cmpq	%rcx, %rax
jne	.Lloop
