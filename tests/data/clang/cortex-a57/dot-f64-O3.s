// dot-f64-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/dot-f64.c
// LLVM-MCA-BEGIN dot-f64-O3
.LBB0_5:
	ldr	d1, [x10]
	subs	x11, x11, #4
	ldr	d4, [x9]
	fmul	d1, d1, d4
	ldur	q2, [x10, #8]
	ldur	q5, [x9, #8]
	fmul	v2.2d, v2.2d, v5.2d
	ldr	d3, [x10, #24]
	ldr	d6, [x9, #24]
	fmul	d4, d3, d6
	add	x10, x10, #32
	add	x9, x9, #32
	fadd	d0, d0, d1
	fadd	d0, d0, d2
	mov	d1, v2.d[1]
	fadd	d0, d0, d1
	fadd	d0, d0, d4
	b.ne	.LBB0_5
// LLVM-MCA-END
