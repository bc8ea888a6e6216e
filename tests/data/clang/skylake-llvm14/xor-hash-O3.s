# xor-hash-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/xor-hash.c
# LLVM-MCA-BEGIN xor-hash-O3
.LBB0_9:
	movzbl	(%rdi,%rdx), %eax
	xorq	%rcx, %rax
	imulq	%r9, %rax
	movzbl	1(%rdi,%rdx), %ecx
	xorq	%rax, %rcx
	imulq	%r9, %rcx
	movzbl	2(%rdi,%rdx), %eax
	xorq	%rcx, %rax
	imulq	%r9, %rax
	movzbl	3(%rdi,%rdx), %ecx
	xorq	%rax, %rcx
	imulq	%r9, %rcx
	movzbl	4(%rdi,%rdx), %eax
	xorq	%rcx, %rax
	imulq	%r9, %rax
	movzbl	5(%rdi,%rdx), %ecx
	xorq	%rax, %rcx
	imulq	%r9, %rcx
	movzbl	6(%rdi,%rdx), %eax
	xorq	%rcx, %rax
	imulq	%r9, %rax
	movzbl	7(%rdi,%rdx), %ecx
	xorq	%rax, %rcx
	imulq	%r9, %rcx
	addq	$8, %rdx
	cmpq	%rdx, %rsi
	jne	.LBB0_9
# LLVM-MCA-END
