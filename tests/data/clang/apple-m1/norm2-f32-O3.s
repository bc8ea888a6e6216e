// norm2-f32-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/norm2-f32.c
// LLVM-MCA-BEGIN norm2-f32-O3
.LBB0_5:
	ldp	s1, s2, [x9, #-4]
	fmul	s1, s1, s1
	fmul	s2, s2, s2
	fadd	s0, s0, s1
	fadd	s0, s0, s2
	add	x9, x9, #8
	subs	x10, x10, #2
	b.ne	.LBB0_5
// LLVM-MCA-END
