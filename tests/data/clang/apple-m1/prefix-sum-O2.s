// prefix-sum-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/prefix-sum.c
// LLVM-MCA-BEGIN prefix-sum-O2
.LBB0_2:
	ldr	x9, [x1], #8
	add	x8, x9, x8
	str	x8, [x0], #8
	subs	x2, x2, #1
	b.ne	.LBB0_2
// LLVM-MCA-END
