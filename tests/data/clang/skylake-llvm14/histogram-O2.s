# histogram-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/histogram.c
# LLVM-MCA-BEGIN histogram-O2
.LBB0_8:
	movzbl	(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	1(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	2(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	3(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	4(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	5(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	6(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	movzbl	7(%rsi,%rcx), %eax
	incl	(%rdi,%rax,4)
	addq	$8, %rcx
	cmpq	%rcx, %rdx
	jne	.LBB0_8
# LLVM-MCA-END
