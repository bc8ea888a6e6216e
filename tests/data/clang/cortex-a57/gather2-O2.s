// gather2-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/gather2.c
// LLVM-MCA-BEGIN gather2-O2
.LBB0_4:
	sub	x12, x10, #64
	sub	x13, x10, #32
	subs	x11, x11, #8
	ld2	{ v0.2d, v1.2d }, [x12]
	mov	x12, x10
	ld2	{ v2.2d, v3.2d }, [x13]
	add	x10, x10, #128
	ld2	{ v4.2d, v5.2d }, [x12], #32
	stp	q0, q2, [x9, #-32]
	ld2	{ v0.2d, v1.2d }, [x12]
	stp	q4, q0, [x9], #64
	b.ne	.LBB0_4
// LLVM-MCA-END
