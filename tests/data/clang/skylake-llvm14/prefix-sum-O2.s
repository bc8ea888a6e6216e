# prefix-sum-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/prefix-sum.c
# LLVM-MCA-BEGIN prefix-sum-O2
.LBB0_8:
	addq	(%rsi,%rax,8), %rcx
	movq	%rcx, (%rdi,%rax,8)
	addq	8(%rsi,%rax,8), %rcx
	movq	%rcx, 8(%rdi,%rax,8)
	addq	16(%rsi,%rax,8), %rcx
	movq	%rcx, 16(%rdi,%rax,8)
	addq	24(%rsi,%rax,8), %rcx
	movq	%rcx, 24(%rdi,%rax,8)
	addq	32(%rsi,%rax,8), %rcx
	movq	%rcx, 32(%rdi,%rax,8)
	addq	40(%rsi,%rax,8), %rcx
	movq	%rcx, 40(%rdi,%rax,8)
	addq	48(%rsi,%rax,8), %rcx
	movq	%rcx, 48(%rdi,%rax,8)
	addq	56(%rsi,%rax,8), %rcx
	movq	%rcx, 56(%rdi,%rax,8)
	addq	$8, %rax
	cmpq	%rax, %rdx
	jne	.LBB0_8
# LLVM-MCA-END
