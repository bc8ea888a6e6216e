// max-i32-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/max-i32.c
// LLVM-MCA-BEGIN max-i32-O3
.LBB0_4:
	ldp	q2, q3, [x8, #-16]
	smax	v0.4s, v2.4s, v0.4s
	smax	v1.4s, v3.4s, v1.4s
	add	x8, x8, #32
	subs	x12, x12, #8
	b.ne	.LBB0_4
// LLVM-MCA-END
