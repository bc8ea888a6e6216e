// matvec-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/matvec.c
// LLVM-MCA-BEGIN matvec-O2
.LBB0_6:
	ldp	d1, d2, [x17, #-16]
	sub	x16, x16, #4
	ldp	d3, d4, [x18, #-16]
	cmp	x12, x16
	fmadd	d0, d1, d3, d0
	fmadd	d0, d2, d4, d0
	ldp	d1, d2, [x17], #32
	ldp	d3, d4, [x18], #32
	fmadd	d0, d1, d3, d0
	fmadd	d0, d2, d4, d0
	b.ne	.LBB0_6
// LLVM-MCA-END
