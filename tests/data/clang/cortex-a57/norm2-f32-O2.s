// norm2-f32-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/norm2-f32.c
// LLVM-MCA-BEGIN norm2-f32-O2
.LBB0_5:
	ldp	s1, s2, [x9, #-8]
	subs	x10, x10, #4
	ldp	s3, s4, [x9], #16
	fmul	s4, s4, s4
	fmul	s2, s2, s2
	fmul	s3, s3, s3
	fmul	s1, s1, s1
	fadd	s0, s0, s1
	fadd	s0, s0, s2
	fadd	s0, s0, s3
	fadd	s0, s0, s4
	b.ne	.LBB0_5
// LLVM-MCA-END
