// stencil3-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/stencil3.c
// LLVM-MCA-BEGIN stencil3-O2
.LBB0_4:
	ldur	q3, [x13, #-24]
	subs	x14, x14, #16
	ext	v6.16b, v0.16b, v3.16b, #12
	ldur	q4, [x13, #-8]
	ldur	q5, [x13, #8]
	ldur	q0, [x13, #24]
	ldp	q7, q16, [x13, #-32]
	ext	v19.16b, v3.16b, v4.16b, #12
	ext	v20.16b, v4.16b, v5.16b, #12
	ext	v21.16b, v5.16b, v0.16b, #12
	ldp	q17, q18, [x13], #64
	fmul	v6.4s, v6.4s, v1.4s
	fmul	v19.4s, v19.4s, v1.4s
	fmla	v6.4s, v2.4s, v7.4s
	fmul	v20.4s, v20.4s, v1.4s
	fmla	v19.4s, v2.4s, v16.4s
	fmla	v20.4s, v2.4s, v17.4s
	fmla	v6.4s, v2.4s, v3.4s
	fmla	v19.4s, v2.4s, v4.4s
	fmul	v7.4s, v21.4s, v1.4s
	fmla	v7.4s, v2.4s, v18.4s
	fmla	v20.4s, v2.4s, v5.4s
	fmla	v7.4s, v2.4s, v0.4s
	stp	q6, q19, [x12, #-32]
	stp	q20, q7, [x12], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
