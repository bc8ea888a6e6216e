# copy a vector per iteration (a load and a two-micro-op store)
vmovupd	(%rdi,%rax), %ymm0
vmovupd	%ymm0, (%rsi,%rax)
addq	$32, %rax
cmpq	%rcx, %rax
jne	.Lloop
