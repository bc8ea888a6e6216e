# horner-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/horner.c
# LLVM-MCA-BEGIN horner-O3
.LBB0_6:
	vmovupd	(%rsi,%rcx,8), %ymm4
	vmovupd	32(%rsi,%rcx,8), %ymm5
	vmovupd	64(%rsi,%rcx,8), %ymm6
	vmovupd	96(%rsi,%rcx,8), %ymm7
	vmovapd	%ymm1, %ymm8
	vfmadd213pd	%ymm0, %ymm4, %ymm8
	vmovapd	%ymm1, %ymm9
	vfmadd213pd	%ymm0, %ymm5, %ymm9
	vmovapd	%ymm1, %ymm10
	vfmadd213pd	%ymm0, %ymm6, %ymm10
	vmovapd	%ymm1, %ymm11
	vfmadd213pd	%ymm0, %ymm7, %ymm11
	vfmadd213pd	%ymm2, %ymm4, %ymm8
	vfmadd213pd	%ymm2, %ymm5, %ymm9
	vfmadd213pd	%ymm2, %ymm6, %ymm10
	vfmadd213pd	%ymm2, %ymm7, %ymm11
	vfmadd213pd	%ymm3, %ymm4, %ymm8
	vfmadd213pd	%ymm3, %ymm5, %ymm9
	vfmadd213pd	%ymm3, %ymm6, %ymm10
	vfmadd213pd	%ymm3, %ymm7, %ymm11
	vmovupd	%ymm8, (%rdi,%rcx,8)
	vmovupd	%ymm9, 32(%rdi,%rcx,8)
	vmovupd	%ymm10, 64(%rdi,%rcx,8)
	vmovupd	%ymm11, 96(%rdi,%rcx,8)
	vmovupd	128(%rsi,%rcx,8), %ymm4
	vmovupd	160(%rsi,%rcx,8), %ymm5
	vmovupd	192(%rsi,%rcx,8), %ymm6
	vmovupd	224(%rsi,%rcx,8), %ymm7
	vmovapd	%ymm1, %ymm8
	vfmadd213pd	%ymm0, %ymm4, %ymm8
	vmovapd	%ymm1, %ymm9
	vfmadd213pd	%ymm0, %ymm5, %ymm9
	vmovapd	%ymm1, %ymm10
	vfmadd213pd	%ymm0, %ymm6, %ymm10
	vmovapd	%ymm1, %ymm11
	vfmadd213pd	%ymm0, %ymm7, %ymm11
	vfmadd213pd	%ymm2, %ymm4, %ymm8
	vfmadd213pd	%ymm2, %ymm5, %ymm9
	vfmadd213pd	%ymm2, %ymm6, %ymm10
	vfmadd213pd	%ymm2, %ymm7, %ymm11
	vfmadd213pd	%ymm3, %ymm4, %ymm8
	vfmadd213pd	%ymm3, %ymm5, %ymm9
	vfmadd213pd	%ymm3, %ymm6, %ymm10
	vfmadd213pd	%ymm3, %ymm7, %ymm11
	vmovupd	%ymm8, 128(%rdi,%rcx,8)
	vmovupd	%ymm9, 160(%rdi,%rcx,8)
	vmovupd	%ymm10, 192(%rdi,%rcx,8)
	vmovupd	%ymm11, 224(%rdi,%rcx,8)
	addq	$32, %rcx
	addq	$-2, %r9
	jne	.LBB0_6
# LLVM-MCA-END
