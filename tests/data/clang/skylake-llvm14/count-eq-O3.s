# count-eq-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/count-eq.c
# LLVM-MCA-BEGIN count-eq-O3
.LBB0_7:
	vpcmpeqd	(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpcmpeqd	16(%rdi,%rax,4), %xmm0, %xmm7
	vpaddq	%ymm6, %ymm1, %ymm1
	vpmovzxdq	%xmm7, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm2, %ymm2
	vpcmpeqd	32(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm3, %ymm3
	vpcmpeqd	48(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm4, %ymm4
	vpcmpeqd	64(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm1, %ymm1
	vpcmpeqd	80(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm2, %ymm2
	vpcmpeqd	96(%rdi,%rax,4), %xmm0, %xmm6
	vpmovzxdq	%xmm6, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpcmpeqd	112(%rdi,%rax,4), %xmm0, %xmm7
	vpaddq	%ymm6, %ymm3, %ymm3
	vpmovzxdq	%xmm7, %ymm6
	vpand	%ymm5, %ymm6, %ymm6
	vpaddq	%ymm6, %ymm4, %ymm4
	addq	$32, %rax
	addq	$-2, %r9
	jne	.LBB0_7
# LLVM-MCA-END
