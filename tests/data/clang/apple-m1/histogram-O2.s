// histogram-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/histogram.c
// LLVM-MCA-BEGIN histogram-O2
.LBB0_1:
	ldrb	w8, [x1], #1
	lsl	x8, x8, #2
	ldr	w9, [x0, x8]
	add	w9, w9, #1
	str	w9, [x0, x8]
	subs	x2, x2, #1
	b.ne	.LBB0_1
// LLVM-MCA-END
