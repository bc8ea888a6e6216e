// saxpy-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/saxpy.c
// LLVM-MCA-BEGIN saxpy-O3
.LBB0_4:
	ldp	q2, q3, [x9, #-16]
	ldp	q4, q5, [x10, #-16]
	fmla	v4.4s, v2.4s, v1.4s
	fmla	v5.4s, v3.4s, v1.4s
	stp	q4, q5, [x10, #-16]
	add	x9, x9, #32
	add	x10, x10, #32
	subs	x11, x11, #8
	b.ne	.LBB0_4
// LLVM-MCA-END
