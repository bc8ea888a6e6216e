// gather2-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/gather2.c
// LLVM-MCA-BEGIN gather2-O2
.LBB0_4:
	sub	x12, x9, #32
	ld2	{ v0.2d, v1.2d }, [x12]
	ld2	{ v2.2d, v3.2d }, [x9]
	stp	q0, q2, [x10, #-16]
	add	x9, x9, #64
	add	x10, x10, #32
	subs	x11, x11, #4
	b.ne	.LBB0_4
// LLVM-MCA-END
