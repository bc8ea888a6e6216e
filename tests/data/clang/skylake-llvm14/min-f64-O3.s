# min-f64-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/min-f64.c
# LLVM-MCA-BEGIN min-f64-O3
.LBB0_9:
	vmovsd	8(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	16(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	24(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	32(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	40(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	48(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	56(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	vmovsd	64(%rdi,%rcx,8), %xmm1
	vminsd	%xmm0, %xmm1, %xmm0
	addq	$8, %rcx
	cmpq	%rcx, %rdx
	jne	.LBB0_9
# LLVM-MCA-END
