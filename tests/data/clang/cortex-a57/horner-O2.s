// horner-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/horner.c
// LLVM-MCA-BEGIN horner-O2
.LBB0_4:
	ldp	q4, q5, [x9, #-32]
	mov	v16.16b, v1.16b
	mov	v17.16b, v1.16b
	mov	v18.16b, v1.16b
	ldp	q6, q7, [x9], #64
	mov	v19.16b, v1.16b
	mov	v20.16b, v2.16b
	fmla	v17.2d, v0.2d, v5.2d
	fmla	v18.2d, v0.2d, v6.2d
	fmla	v19.2d, v0.2d, v7.2d
	subs	x11, x11, #8
	fmla	v16.2d, v0.2d, v4.2d
	fmla	v20.2d, v4.2d, v16.2d
	mov	v16.16b, v2.16b
	fmla	v16.2d, v5.2d, v17.2d
	mov	v17.16b, v2.16b
	fmla	v17.2d, v6.2d, v18.2d
	mov	v18.16b, v2.16b
	fmla	v18.2d, v7.2d, v19.2d
	mov	v19.16b, v3.16b
	fmla	v19.2d, v4.2d, v20.2d
	mov	v4.16b, v3.16b
	mov	v20.16b, v3.16b
	fmla	v4.2d, v5.2d, v16.2d
	mov	v5.16b, v3.16b
	fmla	v20.2d, v6.2d, v17.2d
	fmla	v5.2d, v7.2d, v18.2d
	stp	q19, q4, [x10, #-32]
	stp	q20, q5, [x10], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
