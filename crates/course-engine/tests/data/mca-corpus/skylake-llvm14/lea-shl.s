# an address computation feeding a shift, an add and a popcount
leaq	8(%rax,%rbx), %rcx
shlq	$3, %rcx
addq	%rcx, %rax
popcntq	%rax, %rdx
