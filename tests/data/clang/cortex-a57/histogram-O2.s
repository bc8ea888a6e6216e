// histogram-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/histogram.c
// LLVM-MCA-BEGIN histogram-O2
.LBB0_3:
	add	x10, x1, x8
	add	x8, x8, #2
	ldrb	w11, [x10]
	ldrb	w10, [x10, #1]
	cmp	x9, x8
	lsl	x11, x11, #2
	lsl	x10, x10, #2
	ldr	w12, [x0, x11]
	add	w12, w12, #1
	str	w12, [x0, x11]
	ldr	w11, [x0, x10]
	add	w11, w11, #1
	str	w11, [x0, x10]
	b.ne	.LBB0_3
// LLVM-MCA-END
