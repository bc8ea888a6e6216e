# strlen-O3: the innermost loop of clang-14 -O3 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/strlen.c
# LLVM-MCA-BEGIN strlen-O3
.LBB0_1:
	cmpb	$0, 1(%rdi,%rax)
	leaq	1(%rax), %rax
	jne	.LBB0_1
# LLVM-MCA-END
