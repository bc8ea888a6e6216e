# shifts and a branch compete for ports 0 and 6 with adds
shlq	$2, %rax
shlq	$3, %rbx
addq	$1, %rcx
addq	$1, %rdx
cmpq	%rsi, %rdi
jne	.Lloop
