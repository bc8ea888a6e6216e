// xor-hash-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/xor-hash.c
// LLVM-MCA-BEGIN xor-hash-O3
.LBB0_4:
	add	x12, x8, x10
	add	x10, x10, #2
	ldrb	w13, [x12]
	ldrb	w12, [x12, #1]
	cmp	x11, x10
	eor	x13, x0, x13
	mul	x13, x13, x9
	eor	x12, x13, x12
	mul	x0, x12, x9
	b.ne	.LBB0_4
// LLVM-MCA-END
