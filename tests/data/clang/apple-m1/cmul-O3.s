// cmul-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/cmul.c
// LLVM-MCA-BEGIN cmul-O3
.LBB0_7:
	lsl	x16, x9, #3
	ldr	d0, [x15, x16]
	ldr	d1, [x14, x16]
	ldr	d2, [x13, x16]
	ldr	d3, [x12, x16]
	fneg	d4, d2
	fmul	d4, d3, d4
	fmadd	d4, d0, d1, d4
	str	d4, [x11, x16]
	fmul	d1, d1, d2
	fmadd	d0, d0, d3, d1
	str	d0, [x8, x16]
	add	x9, x9, #1
	cmp	x10, x9
	b.ne	.LBB0_7
// LLVM-MCA-END
