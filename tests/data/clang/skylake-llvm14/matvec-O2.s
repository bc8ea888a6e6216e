# matvec-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/matvec.c
# LLVM-MCA-BEGIN matvec-O2
.LBB0_8:
	vmovsd	-56(%rax,%rbx,8), %xmm1
	vfmadd132sd	(%rdx,%rbx,8), %xmm0, %xmm1
	vmovsd	-48(%rax,%rbx,8), %xmm0
	vfmadd231sd	8(%rdx,%rbx,8), %xmm0, %xmm1
	vmovsd	-40(%rax,%rbx,8), %xmm0
	vfmadd132sd	16(%rdx,%rbx,8), %xmm1, %xmm0
	vmovsd	-32(%rax,%rbx,8), %xmm1
	vfmadd132sd	24(%rdx,%rbx,8), %xmm0, %xmm1
	vmovsd	-24(%rax,%rbx,8), %xmm0
	vfmadd132sd	32(%rdx,%rbx,8), %xmm1, %xmm0
	vmovsd	-16(%rax,%rbx,8), %xmm1
	vfmadd132sd	40(%rdx,%rbx,8), %xmm0, %xmm1
	vmovsd	-8(%rax,%rbx,8), %xmm2
	vfmadd132sd	48(%rdx,%rbx,8), %xmm1, %xmm2
	vmovsd	(%rax,%rbx,8), %xmm0
	vfmadd132sd	56(%rdx,%rbx,8), %xmm2, %xmm0
	addq	$8, %rbx
	cmpq	%rbx, %r9
	jne	.LBB0_8
# LLVM-MCA-END
