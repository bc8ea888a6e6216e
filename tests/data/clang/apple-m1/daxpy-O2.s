// daxpy-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/daxpy.c
// LLVM-MCA-BEGIN daxpy-O2
.LBB0_4:
	ldp	q2, q3, [x9, #-16]
	ldp	q4, q5, [x10, #-16]
	fmla	v4.2d, v2.2d, v1.2d
	fmla	v5.2d, v3.2d, v1.2d
	stp	q4, q5, [x10, #-16]
	add	x9, x9, #32
	add	x10, x10, #32
	subs	x11, x11, #4
	b.ne	.LBB0_4
// LLVM-MCA-END
