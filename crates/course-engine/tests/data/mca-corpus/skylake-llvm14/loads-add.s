# three loads and an accumulating add
movq	(%rdi), %rax
movq	8(%rdi), %rbx
movq	16(%rdi), %rcx
addq	%rax, %rdx
