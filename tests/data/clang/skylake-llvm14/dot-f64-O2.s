# dot-f64-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/dot-f64.c
# LLVM-MCA-BEGIN dot-f64-O2
.LBB0_9:
	vmovsd	(%rdi,%rcx,8), %xmm1
	vfmadd132sd	(%rsi,%rcx,8), %xmm0, %xmm1
	vmovsd	8(%rdi,%rcx,8), %xmm0
	vfmadd231sd	8(%rsi,%rcx,8), %xmm0, %xmm1
	vmovsd	16(%rdi,%rcx,8), %xmm0
	vfmadd132sd	16(%rsi,%rcx,8), %xmm1, %xmm0
	vmovsd	24(%rdi,%rcx,8), %xmm1
	vfmadd132sd	24(%rsi,%rcx,8), %xmm0, %xmm1
	vmovsd	32(%rdi,%rcx,8), %xmm0
	vfmadd132sd	32(%rsi,%rcx,8), %xmm1, %xmm0
	vmovsd	40(%rdi,%rcx,8), %xmm1
	vfmadd132sd	40(%rsi,%rcx,8), %xmm0, %xmm1
	vmovsd	48(%rdi,%rcx,8), %xmm2
	vfmadd132sd	48(%rsi,%rcx,8), %xmm1, %xmm2
	vmovsd	56(%rdi,%rcx,8), %xmm0
	vfmadd132sd	56(%rsi,%rcx,8), %xmm2, %xmm0
	addq	$8, %rcx
	cmpq	%rcx, %rdx
	jne	.LBB0_9
# LLVM-MCA-END
