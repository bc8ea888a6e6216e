# list-sum-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/list-sum.c
# LLVM-MCA-BEGIN list-sum-O2
.LBB0_1:
	addq	8(%rdi), %rax
	movq	(%rdi), %rdi
	testq	%rdi, %rdi
	jne	.LBB0_1
# LLVM-MCA-END
