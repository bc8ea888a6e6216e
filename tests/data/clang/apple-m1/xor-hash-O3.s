// xor-hash-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/xor-hash.c
// LLVM-MCA-BEGIN xor-hash-O3
.LBB0_2:
	ldrb	w10, [x8], #1
	eor	x10, x0, x10
	mul	x0, x10, x9
	subs	x1, x1, #1
	b.ne	.LBB0_2
// LLVM-MCA-END
