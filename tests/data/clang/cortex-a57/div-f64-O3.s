// div-f64-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/div-f64.c
// LLVM-MCA-BEGIN div-f64-O3
.LBB0_4:
	ldp	q0, q1, [x9, #-32]
	subs	x12, x12, #8
	ldp	q4, q5, [x11, #-32]
	fdiv	v1.2d, v1.2d, v5.2d
	ldp	q2, q3, [x9], #64
	fdiv	v0.2d, v0.2d, v4.2d
	ldp	q4, q5, [x11], #64
	fdiv	v3.2d, v3.2d, v5.2d
	stp	q0, q1, [x10, #-32]
	fdiv	v2.2d, v2.2d, v4.2d
	stp	q2, q3, [x10], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
