// daxpy-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/daxpy.c
// LLVM-MCA-BEGIN daxpy-O2
.LBB0_4:
	ldp	q2, q3, [x9, #-32]
	subs	x11, x11, #8
	ldp	q6, q7, [x10, #-32]
	fmla	v7.2d, v3.2d, v1.2d
	fmla	v6.2d, v2.2d, v1.2d
	ldp	q16, q17, [x10]
	ldp	q4, q5, [x9], #64
	fmla	v16.2d, v4.2d, v1.2d
	fmla	v17.2d, v5.2d, v1.2d
	stp	q6, q7, [x10, #-32]
	stp	q16, q17, [x10], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
