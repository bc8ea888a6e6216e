# daxpy-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/daxpy.c
# LLVM-MCA-BEGIN daxpy-O2
.LBB0_6:
	vmovupd	(%rsi,%rcx,8), %ymm2
	vmovupd	32(%rsi,%rcx,8), %ymm3
	vmovupd	64(%rsi,%rcx,8), %ymm4
	vmovupd	96(%rsi,%rcx,8), %ymm5
	vfmadd213pd	(%rdi,%rcx,8), %ymm1, %ymm2
	vfmadd213pd	32(%rdi,%rcx,8), %ymm1, %ymm3
	vfmadd213pd	64(%rdi,%rcx,8), %ymm1, %ymm4
	vfmadd213pd	96(%rdi,%rcx,8), %ymm1, %ymm5
	vmovupd	%ymm2, (%rdi,%rcx,8)
	vmovupd	%ymm3, 32(%rdi,%rcx,8)
	vmovupd	%ymm4, 64(%rdi,%rcx,8)
	vmovupd	%ymm5, 96(%rdi,%rcx,8)
	vmovupd	128(%rsi,%rcx,8), %ymm2
	vmovupd	160(%rsi,%rcx,8), %ymm3
	vmovupd	192(%rsi,%rcx,8), %ymm4
	vmovupd	224(%rsi,%rcx,8), %ymm5
	vfmadd213pd	128(%rdi,%rcx,8), %ymm1, %ymm2
	vfmadd213pd	160(%rdi,%rcx,8), %ymm1, %ymm3
	vfmadd213pd	192(%rdi,%rcx,8), %ymm1, %ymm4
	vfmadd213pd	224(%rdi,%rcx,8), %ymm1, %ymm5
	vmovupd	%ymm2, 128(%rdi,%rcx,8)
	vmovupd	%ymm3, 160(%rdi,%rcx,8)
	vmovupd	%ymm4, 192(%rdi,%rcx,8)
	vmovupd	%ymm5, 224(%rdi,%rcx,8)
	addq	$32, %rcx
	addq	$-2, %r9
	jne	.LBB0_6
# LLVM-MCA-END
