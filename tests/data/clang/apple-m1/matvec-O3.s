// matvec-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/matvec.c
// LLVM-MCA-BEGIN matvec-O3
.LBB0_3:
	lsl	x11, x10, #3
	ldr	d1, [x1, x11]
	ldr	d2, [x2, x11]
	fmadd	d0, d1, d2, d0
	add	x10, x10, #1
	cmp	x3, x10
	b.ne	.LBB0_3
// LLVM-MCA-END
