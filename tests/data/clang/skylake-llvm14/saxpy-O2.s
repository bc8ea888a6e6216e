# saxpy-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/saxpy.c
# LLVM-MCA-BEGIN saxpy-O2
.LBB0_6:
	vmovups	(%rsi,%rcx,4), %ymm2
	vmovups	32(%rsi,%rcx,4), %ymm3
	vmovups	64(%rsi,%rcx,4), %ymm4
	vmovups	96(%rsi,%rcx,4), %ymm5
	vfmadd213ps	(%rdi,%rcx,4), %ymm1, %ymm2
	vfmadd213ps	32(%rdi,%rcx,4), %ymm1, %ymm3
	vfmadd213ps	64(%rdi,%rcx,4), %ymm1, %ymm4
	vfmadd213ps	96(%rdi,%rcx,4), %ymm1, %ymm5
	vmovups	%ymm2, (%rdi,%rcx,4)
	vmovups	%ymm3, 32(%rdi,%rcx,4)
	vmovups	%ymm4, 64(%rdi,%rcx,4)
	vmovups	%ymm5, 96(%rdi,%rcx,4)
	vmovups	128(%rsi,%rcx,4), %ymm2
	vmovups	160(%rsi,%rcx,4), %ymm3
	vmovups	192(%rsi,%rcx,4), %ymm4
	vmovups	224(%rsi,%rcx,4), %ymm5
	vfmadd213ps	128(%rdi,%rcx,4), %ymm1, %ymm2
	vfmadd213ps	160(%rdi,%rcx,4), %ymm1, %ymm3
	vfmadd213ps	192(%rdi,%rcx,4), %ymm1, %ymm4
	vfmadd213ps	224(%rdi,%rcx,4), %ymm1, %ymm5
	vmovups	%ymm2, 128(%rdi,%rcx,4)
	vmovups	%ymm3, 160(%rdi,%rcx,4)
	vmovups	%ymm4, 192(%rdi,%rcx,4)
	vmovups	%ymm5, 224(%rdi,%rcx,4)
	addq	$64, %rcx
	addq	$-2, %r9
	jne	.LBB0_6
# LLVM-MCA-END
