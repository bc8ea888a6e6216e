# abs-diff-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/abs-diff.c
# LLVM-MCA-BEGIN abs-diff-O3
.LBB0_6:
	vmovdqu	(%rsi,%rax,4), %ymm0
	vmovdqu	32(%rsi,%rax,4), %ymm1
	vmovdqu	64(%rsi,%rax,4), %ymm2
	vmovdqu	96(%rsi,%rax,4), %ymm3
	vpsubd	(%rdx,%rax,4), %ymm0, %ymm0
	vpsubd	32(%rdx,%rax,4), %ymm1, %ymm1
	vpsubd	64(%rdx,%rax,4), %ymm2, %ymm2
	vpsubd	96(%rdx,%rax,4), %ymm3, %ymm3
	vpabsd	%ymm0, %ymm0
	vpabsd	%ymm1, %ymm1
	vpabsd	%ymm2, %ymm2
	vpabsd	%ymm3, %ymm3
	vmovdqu	%ymm0, (%rdi,%rax,4)
	vmovdqu	%ymm1, 32(%rdi,%rax,4)
	vmovdqu	%ymm2, 64(%rdi,%rax,4)
	vmovdqu	%ymm3, 96(%rdi,%rax,4)
	vmovdqu	128(%rsi,%rax,4), %ymm0
	vmovdqu	160(%rsi,%rax,4), %ymm1
	vmovdqu	192(%rsi,%rax,4), %ymm2
	vmovdqu	224(%rsi,%rax,4), %ymm3
	vpsubd	128(%rdx,%rax,4), %ymm0, %ymm0
	vpsubd	160(%rdx,%rax,4), %ymm1, %ymm1
	vpsubd	192(%rdx,%rax,4), %ymm2, %ymm2
	vpsubd	224(%rdx,%rax,4), %ymm3, %ymm3
	vpabsd	%ymm0, %ymm0
	vpabsd	%ymm1, %ymm1
	vpabsd	%ymm2, %ymm2
	vpabsd	%ymm3, %ymm3
	vmovdqu	%ymm0, 128(%rdi,%rax,4)
	vmovdqu	%ymm1, 160(%rdi,%rax,4)
	vmovdqu	%ymm2, 192(%rdi,%rax,4)
	vmovdqu	%ymm3, 224(%rdi,%rax,4)
	addq	$64, %rax
	addq	$-2, %r10
	jne	.LBB0_6
# LLVM-MCA-END
