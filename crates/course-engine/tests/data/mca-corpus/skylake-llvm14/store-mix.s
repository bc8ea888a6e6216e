# eight micro-ops with a load, a store and independent integer work
movq	(%rdi), %rax
addq	$1, %rax
movq	%rax, (%rsi)
imulq	%rbx, %rcx
addq	%rcx, %rdx
subq	$1, %r8
shlq	$2, %r9
addq	%r10, %r11
