# fib-mod-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/fib-mod.c
# LLVM-MCA-BEGIN fib-mod-O2
.LBB0_3:
	imulq	%rdx, %rax
	addq	%rdi, %rax
	addq	$-8, %rsi
	jne	.LBB0_3
# LLVM-MCA-END
