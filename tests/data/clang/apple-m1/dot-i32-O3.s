// dot-i32-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/dot-i32.c
// LLVM-MCA-BEGIN dot-i32-O3
.LBB0_5:
	ldp	q2, q3, [x8, #-16]
	ldp	q4, q5, [x10, #-16]
	mla	v0.4s, v4.4s, v2.4s
	mla	v1.4s, v5.4s, v3.4s
	add	x8, x8, #32
	add	x10, x10, #32
	subs	x11, x11, #8
	b.ne	.LBB0_5
// LLVM-MCA-END
