// xor-hash-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/xor-hash.c
// LLVM-MCA-BEGIN xor-hash-O2
.LBB0_2:
	ldrb	w10, [x8], #1
	eor	x10, x0, x10
	mul	x0, x10, x9
	subs	x1, x1, #1
	b.ne	.LBB0_2
// LLVM-MCA-END
