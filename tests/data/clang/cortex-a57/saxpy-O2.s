// saxpy-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/saxpy.c
// LLVM-MCA-BEGIN saxpy-O2
.LBB0_4:
	ldp	q2, q3, [x9, #-32]
	subs	x11, x11, #16
	ldp	q6, q7, [x10, #-32]
	fmla	v7.4s, v3.4s, v1.4s
	fmla	v6.4s, v2.4s, v1.4s
	ldp	q16, q17, [x10]
	ldp	q4, q5, [x9], #64
	fmla	v16.4s, v4.4s, v1.4s
	fmla	v17.4s, v5.4s, v1.4s
	stp	q6, q7, [x10, #-32]
	stp	q16, q17, [x10], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
