// max-i32-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/max-i32.c
// LLVM-MCA-BEGIN max-i32-O3
.LBB0_4:
	ldp	q4, q5, [x12, #-32]
	subs	x8, x8, #16
	smax	v1.4s, v5.4s, v1.4s
	smax	v0.4s, v4.4s, v0.4s
	ldp	q6, q7, [x12], #64
	smax	v2.4s, v6.4s, v2.4s
	smax	v3.4s, v7.4s, v3.4s
	b.ne	.LBB0_4
// LLVM-MCA-END
