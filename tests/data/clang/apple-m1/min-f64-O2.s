// min-f64-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/min-f64.c
// LLVM-MCA-BEGIN min-f64-O2
.LBB0_2:
	ldr	d1, [x9], #8
	fcmp	d1, d0
	fcsel	d0, d1, d0, mi
	subs	x8, x8, #1
	b.ne	.LBB0_2
// LLVM-MCA-END
