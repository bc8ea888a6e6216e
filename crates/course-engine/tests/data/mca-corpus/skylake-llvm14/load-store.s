# a load, a store to another array, and a multiply chain
movq	(%rdi), %rax
addq	%rax, %rbx
movq	%rbx, (%rsi)
movq	8(%rdi), %rcx
imulq	%rcx, %rdx
