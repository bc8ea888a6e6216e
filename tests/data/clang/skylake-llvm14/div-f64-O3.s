# div-f64-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/div-f64.c
# LLVM-MCA-BEGIN div-f64-O3
.LBB0_6:
	vmovupd	(%rsi,%rax,8), %ymm0
	vdivpd	(%rdx,%rax,8), %ymm0, %ymm0
	vmovupd	%ymm0, (%rdi,%rax,8)
	vmovupd	32(%rsi,%rax,8), %ymm0
	vdivpd	32(%rdx,%rax,8), %ymm0, %ymm0
	vmovupd	%ymm0, 32(%rdi,%rax,8)
	vmovupd	64(%rsi,%rax,8), %ymm0
	vdivpd	64(%rdx,%rax,8), %ymm0, %ymm0
	vmovupd	%ymm0, 64(%rdi,%rax,8)
	vmovupd	96(%rsi,%rax,8), %ymm0
	vdivpd	96(%rdx,%rax,8), %ymm0, %ymm0
	vmovupd	%ymm0, 96(%rdi,%rax,8)
	addq	$16, %rax
	addq	$-4, %r9
	jne	.LBB0_6
# LLVM-MCA-END
