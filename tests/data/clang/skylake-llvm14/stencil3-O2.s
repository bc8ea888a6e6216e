# stencil3-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/stencil3.c
# LLVM-MCA-BEGIN stencil3-O2
.LBB0_4:
	vmovups	8(%rsi,%rax,4), %ymm3
	vmovups	40(%rsi,%rax,4), %ymm4
	vmovups	72(%rsi,%rax,4), %ymm5
	vperm2f128	$33, %ymm3, %ymm0, %ymm6
	vmovups	104(%rsi,%rax,4), %ymm0
	vshufps	$3, %ymm3, %ymm6, %ymm6
	vshufps	$152, %ymm3, %ymm6, %ymm6
	vperm2f128	$33, %ymm4, %ymm3, %ymm7
	vshufps	$3, %ymm4, %ymm7, %ymm7
	vshufps	$152, %ymm4, %ymm7, %ymm7
	vperm2f128	$33, %ymm5, %ymm4, %ymm8
	vshufps	$3, %ymm5, %ymm8, %ymm8
	vshufps	$152, %ymm5, %ymm8, %ymm8
	vperm2f128	$33, %ymm0, %ymm5, %ymm9
	vshufps	$3, %ymm0, %ymm9, %ymm9
	vshufps	$152, %ymm0, %ymm9, %ymm9
	vmulps	%ymm1, %ymm6, %ymm6
	vmulps	%ymm1, %ymm7, %ymm7
	vmulps	%ymm1, %ymm8, %ymm8
	vmulps	%ymm1, %ymm9, %ymm9
	vfmadd231ps	(%rsi,%rax,4), %ymm2, %ymm6
	vfmadd231ps	32(%rsi,%rax,4), %ymm2, %ymm7
	vfmadd231ps	64(%rsi,%rax,4), %ymm2, %ymm8
	vfmadd231ps	96(%rsi,%rax,4), %ymm2, %ymm9
	vfmadd231ps	%ymm3, %ymm2, %ymm6
	vfmadd231ps	%ymm4, %ymm2, %ymm7
	vfmadd231ps	%ymm5, %ymm2, %ymm8
	vfmadd231ps	%ymm2, %ymm0, %ymm9
	vmovups	%ymm6, 4(%rdi,%rax,4)
	vmovups	%ymm7, 36(%rdi,%rax,4)
	vmovups	%ymm8, 68(%rdi,%rax,4)
	vmovups	%ymm9, 100(%rdi,%rax,4)
	addq	$32, %rax
	cmpq	%rax, %r9
	jne	.LBB0_4
# LLVM-MCA-END
