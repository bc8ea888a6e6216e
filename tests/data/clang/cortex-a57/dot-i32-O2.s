// dot-i32-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/dot-i32.c
// LLVM-MCA-BEGIN dot-i32-O2
.LBB0_5:
	ldp	q4, q5, [x8, #-32]
	subs	x11, x11, #16
	ldp	q16, q17, [x10, #-32]
	mla	v1.4s, v17.4s, v5.4s
	ldp	q6, q7, [x8], #64
	mla	v0.4s, v16.4s, v4.4s
	ldp	q4, q5, [x10], #64
	mla	v3.4s, v5.4s, v7.4s
	mla	v2.4s, v4.4s, v6.4s
	b.ne	.LBB0_5
// LLVM-MCA-END
