// prefix-sum-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/prefix-sum.c
// LLVM-MCA-BEGIN prefix-sum-O2
.LBB0_3:
	lsl	x11, x8, #3
	add	x8, x8, #2
	add	x12, x1, x11
	add	x11, x0, x11
	ldp	x13, x12, [x12]
	cmp	x10, x8
	add	x13, x13, x9
	add	x9, x12, x13
	stp	x13, x9, [x11]
	b.ne	.LBB0_3
// LLVM-MCA-END
