# norm2-f32-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/norm2-f32.c
# LLVM-MCA-BEGIN norm2-f32-O3
.LBB0_9:
	vmovss	(%rdi,%rcx,4), %xmm1
	vmovss	4(%rdi,%rcx,4), %xmm2
	vfmadd213ss	%xmm0, %xmm1, %xmm1
	vfmadd231ss	%xmm2, %xmm2, %xmm1
	vmovss	8(%rdi,%rcx,4), %xmm0
	vfmadd213ss	%xmm1, %xmm0, %xmm0
	vmovss	12(%rdi,%rcx,4), %xmm1
	vfmadd213ss	%xmm0, %xmm1, %xmm1
	vmovss	16(%rdi,%rcx,4), %xmm0
	vfmadd213ss	%xmm1, %xmm0, %xmm0
	vmovss	20(%rdi,%rcx,4), %xmm1
	vfmadd213ss	%xmm0, %xmm1, %xmm1
	vmovss	24(%rdi,%rcx,4), %xmm2
	vfmadd213ss	%xmm1, %xmm2, %xmm2
	vmovss	28(%rdi,%rcx,4), %xmm0
	vfmadd213ss	%xmm2, %xmm0, %xmm0
	addq	$8, %rcx
	cmpq	%rcx, %rsi
	jne	.LBB0_9
# LLVM-MCA-END
