// scale-i32-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/scale-i32.c
// LLVM-MCA-BEGIN scale-i32-O2
.LBB0_4:
	ldp	q1, q2, [x9, #-16]
	movi	v3.4s, #7
	mla	v3.4s, v1.4s, v0.4s
	movi	v1.4s, #7
	mla	v1.4s, v2.4s, v0.4s
	stp	q3, q1, [x9, #-16]
	add	x9, x9, #32
	subs	x10, x10, #8
	b.ne	.LBB0_4
// LLVM-MCA-END
