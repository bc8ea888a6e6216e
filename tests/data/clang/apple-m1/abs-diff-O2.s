// abs-diff-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/abs-diff.c
// LLVM-MCA-BEGIN abs-diff-O2
.LBB0_4:
	ldp	q0, q1, [x9, #-16]
	ldp	q2, q3, [x10, #-16]
	sub	v0.4s, v0.4s, v2.4s
	sub	v1.4s, v1.4s, v3.4s
	abs	v0.4s, v0.4s
	abs	v1.4s, v1.4s
	stp	q0, q1, [x11, #-16]
	add	x9, x9, #32
	add	x10, x10, #32
	add	x11, x11, #32
	subs	x12, x12, #8
	b.ne	.LBB0_4
// LLVM-MCA-END
