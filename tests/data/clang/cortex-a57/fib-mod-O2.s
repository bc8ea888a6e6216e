// fib-mod-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/fib-mod.c
// LLVM-MCA-BEGIN fib-mod-O2
.LBB0_3:
	madd	x0, x0, x10, x11
	subs	x9, x9, #4
	b.ne	.LBB0_3
// LLVM-MCA-END
