// cmul-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/cmul.c
// LLVM-MCA-BEGIN cmul-O3
.LBB0_4:
	ldp	q0, q1, [x12, #-16]
	subs	x15, x15, #4
	add	x12, x12, #32
	fneg	v17.2d, v1.2d
	ldp	q2, q3, [x9, #-16]
	ldp	q4, q5, [x10, #-16]
	fmul	v1.2d, v5.2d, v1.2d
	add	x9, x9, #32
	add	x10, x10, #32
	fneg	v16.2d, v0.2d
	ldp	q6, q7, [x14, #-16]
	fmul	v0.2d, v4.2d, v0.2d
	fmla	v0.2d, v6.2d, v2.2d
	fmla	v1.2d, v7.2d, v3.2d
	fmul	v7.2d, v7.2d, v17.2d
	fmul	v6.2d, v6.2d, v16.2d
	fmla	v6.2d, v4.2d, v2.2d
	fmla	v7.2d, v5.2d, v3.2d
	add	x14, x14, #32
	stp	q0, q1, [x11, #-16]
	add	x11, x11, #32
	stp	q6, q7, [x13, #-16]
	add	x13, x13, #32
	b.ne	.LBB0_4
// LLVM-MCA-END
