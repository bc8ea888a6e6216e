// abs-diff-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/abs-diff.c
// LLVM-MCA-BEGIN abs-diff-O3
.LBB0_4:
	ldp	q0, q1, [x9, #-32]
	subs	x12, x12, #16
	ldp	q4, q5, [x11, #-32]
	sub	v1.4s, v1.4s, v5.4s
	sub	v0.4s, v0.4s, v4.4s
	abs	v1.4s, v1.4s
	ldp	q2, q3, [x9], #64
	abs	v0.4s, v0.4s
	ldp	q6, q7, [x11], #64
	sub	v2.4s, v2.4s, v6.4s
	stp	q0, q1, [x10, #-32]
	sub	v0.4s, v3.4s, v7.4s
	abs	v1.4s, v2.4s
	abs	v0.4s, v0.4s
	stp	q1, q0, [x10], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
