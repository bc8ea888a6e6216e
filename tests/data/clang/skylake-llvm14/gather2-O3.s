# gather2-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/gather2.c
# LLVM-MCA-BEGIN gather2-O3
.LBB0_7:
	vmovups	-192(%rcx), %ymm0
	vmovups	-128(%rcx), %ymm1
	vmovups	-64(%rcx), %ymm2
	vmovups	(%rcx), %ymm3
	vunpcklpd	-160(%rcx), %ymm0, %ymm0
	vpermpd	$216, %ymm0, %ymm0
	vunpcklpd	-96(%rcx), %ymm1, %ymm1
	vpermpd	$216, %ymm1, %ymm1
	vunpcklpd	-32(%rcx), %ymm2, %ymm2
	vpermpd	$216, %ymm2, %ymm2
	vunpcklpd	32(%rcx), %ymm3, %ymm3
	vmovups	%ymm0, (%rdi,%r8,8)
	vmovups	%ymm1, 32(%rdi,%r8,8)
	vmovups	%ymm2, 64(%rdi,%r8,8)
	vpermpd	$216, %ymm3, %ymm0
	vmovups	%ymm0, 96(%rdi,%r8,8)
	addq	$16, %r8
	addq	$256, %rcx
	cmpq	%r8, %rax
	jne	.LBB0_7
# LLVM-MCA-END
