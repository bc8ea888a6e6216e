// horner-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/horner.c
// LLVM-MCA-BEGIN horner-O2
.LBB0_4:
	ldp	q4, q5, [x9, #-16]
	mov	v6.16b, v1.16b
	fmla	v6.2d, v0.2d, v4.2d
	mov	v7.16b, v1.16b
	fmla	v7.2d, v0.2d, v5.2d
	mov	v16.16b, v2.16b
	fmla	v16.2d, v4.2d, v6.2d
	mov	v6.16b, v2.16b
	fmla	v6.2d, v5.2d, v7.2d
	mov	v7.16b, v3.16b
	mov	v17.16b, v3.16b
	fmla	v7.2d, v4.2d, v16.2d
	fmla	v17.2d, v5.2d, v6.2d
	stp	q7, q17, [x10, #-16]
	add	x9, x9, #32
	add	x10, x10, #32
	subs	x11, x11, #4
	b.ne	.LBB0_4
// LLVM-MCA-END
