// count-eq-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/count-eq.c
// LLVM-MCA-BEGIN count-eq-O2
.LBB0_5:
	ldp	d4, d5, [x8, #-8]
	cmeq	v4.2s, v4.2s, v0.2s
	ushll	v4.2d, v4.2s, #0
	and	v4.16b, v4.16b, v2.16b
	cmeq	v5.2s, v5.2s, v0.2s
	ushll	v5.2d, v5.2s, #0
	and	v5.16b, v5.16b, v2.16b
	add	v1.2d, v1.2d, v4.2d
	add	v3.2d, v3.2d, v5.2d
	add	x8, x8, #16
	subs	x10, x10, #4
	b.ne	.LBB0_5
// LLVM-MCA-END
