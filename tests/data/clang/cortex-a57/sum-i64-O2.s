// sum-i64-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/sum-i64.c
// LLVM-MCA-BEGIN sum-i64-O2
.LBB0_5:
	ldp	q4, q5, [x8, #-32]
	subs	x10, x10, #8
	add	v1.2d, v5.2d, v1.2d
	add	v0.2d, v4.2d, v0.2d
	ldp	q6, q7, [x8], #64
	add	v2.2d, v6.2d, v2.2d
	add	v3.2d, v7.2d, v3.2d
	b.ne	.LBB0_5
// LLVM-MCA-END
