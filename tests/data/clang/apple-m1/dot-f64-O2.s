// dot-f64-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/dot-f64.c
// LLVM-MCA-BEGIN dot-f64-O2
.LBB0_5:
	ldp	d1, d2, [x9, #-8]
	ldp	d3, d4, [x10, #-8]
	fmul	d1, d1, d3
	fmul	d2, d2, d4
	fadd	d0, d0, d1
	fadd	d0, d0, d2
	add	x9, x9, #16
	add	x10, x10, #16
	subs	x11, x11, #2
	b.ne	.LBB0_5
// LLVM-MCA-END
