// div-f64-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/div-f64.c
// LLVM-MCA-BEGIN div-f64-O3
.LBB0_4:
	ldp	q0, q1, [x9, #-16]
	ldp	q2, q3, [x10, #-16]
	fdiv	v0.2d, v0.2d, v2.2d
	fdiv	v1.2d, v1.2d, v3.2d
	stp	q0, q1, [x11, #-16]
	add	x9, x9, #32
	add	x10, x10, #32
	add	x11, x11, #32
	subs	x12, x12, #4
	b.ne	.LBB0_4
// LLVM-MCA-END
