# sum-f32-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/sum-f32.c
# LLVM-MCA-BEGIN sum-f32-O2
.LBB0_9:
	vaddss	(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	4(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	8(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	12(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	16(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	20(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	24(%rdi,%rcx,4), %xmm0, %xmm0
	vaddss	28(%rdi,%rcx,4), %xmm0, %xmm0
	addq	$8, %rcx
	cmpq	%rcx, %rsi
	jne	.LBB0_9
# LLVM-MCA-END
