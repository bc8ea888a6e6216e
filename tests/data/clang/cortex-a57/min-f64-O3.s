// min-f64-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/min-f64.c
// LLVM-MCA-BEGIN min-f64-O3
.LBB0_4:
	add	x11, x0, x9, lsl #3
	add	x9, x9, #2
	ldp	d1, d2, [x11, #8]
	fcmp	d1, d0
	fcsel	d0, d1, d0, mi
	fcmp	d2, d0
	fcsel	d0, d2, d0, mi
	cmp	x10, x9
	b.ne	.LBB0_4
// LLVM-MCA-END
