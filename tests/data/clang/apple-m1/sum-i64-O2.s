// sum-i64-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/sum-i64.c
// LLVM-MCA-BEGIN sum-i64-O2
.LBB0_5:
	ldp	q2, q3, [x8, #-16]
	add	v0.2d, v2.2d, v0.2d
	add	v1.2d, v3.2d, v1.2d
	add	x8, x8, #32
	subs	x10, x10, #4
	b.ne	.LBB0_5
// LLVM-MCA-END
