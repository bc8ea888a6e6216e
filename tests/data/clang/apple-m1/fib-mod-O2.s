// fib-mod-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/fib-mod.c
// LLVM-MCA-BEGIN fib-mod-O2
.LBB0_2:
	madd	x0, x0, x8, x9
	subs	x1, x1, #1
	b.ne	.LBB0_2
// LLVM-MCA-END
