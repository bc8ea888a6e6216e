// scale-i32-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/scale-i32.c
// LLVM-MCA-BEGIN scale-i32-O3
.LBB0_4:
	ldp	q2, q3, [x9, #-32]
	mov	v6.16b, v1.16b
	subs	x10, x10, #16
	ldp	q4, q5, [x9]
	mla	v6.4s, v2.4s, v0.4s
	mov	v2.16b, v1.16b
	mla	v2.4s, v3.4s, v0.4s
	mov	v3.16b, v1.16b
	mla	v3.4s, v4.4s, v0.4s
	stp	q6, q2, [x9, #-32]
	mov	v2.16b, v1.16b
	mla	v2.4s, v5.4s, v0.4s
	stp	q3, q2, [x9], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
