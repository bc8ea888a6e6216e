// stencil3-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/stencil3.c
// LLVM-MCA-BEGIN stencil3-O3
.LBB0_4:
	ldp	q3, q4, [x12, #-16]
	ldur	q5, [x12, #-8]
	ext	v6.16b, v0.16b, v5.16b, #12
	ldur	q0, [x12, #8]
	ext	v7.16b, v5.16b, v0.16b, #12
	fmul	v6.4s, v6.4s, v1.4s
	fmul	v7.4s, v7.4s, v1.4s
	fmla	v6.4s, v2.4s, v3.4s
	fmla	v7.4s, v2.4s, v4.4s
	fmla	v6.4s, v2.4s, v5.4s
	fmla	v7.4s, v2.4s, v0.4s
	stp	q6, q7, [x13, #-16]
	add	x12, x12, #32
	add	x13, x13, #32
	subs	x14, x14, #8
	b.ne	.LBB0_4
// LLVM-MCA-END
