// count-eq-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=cortex-a57 tests/data/clang/src/count-eq.c
// LLVM-MCA-BEGIN count-eq-O3
.LBB0_5:
	ldp	d6, d7, [x8, #-16]
	subs	x10, x10, #8
	ldp	d16, d17, [x8], #32
	cmeq	v17.2s, v17.2s, v0.2s
	cmeq	v7.2s, v7.2s, v0.2s
	cmeq	v16.2s, v16.2s, v0.2s
	ushll	v17.2d, v17.2s, #0
	cmeq	v6.2s, v6.2s, v0.2s
	ushll	v7.2d, v7.2s, #0
	ushll	v16.2d, v16.2s, #0
	and	v17.16b, v17.16b, v2.16b
	ushll	v6.2d, v6.2s, #0
	and	v7.16b, v7.16b, v2.16b
	and	v16.16b, v16.16b, v2.16b
	add	v5.2d, v5.2d, v17.2d
	and	v6.16b, v6.16b, v2.16b
	add	v3.2d, v3.2d, v7.2d
	add	v4.2d, v4.2d, v16.2d
	add	v1.2d, v1.2d, v6.2d
	b.ne	.LBB0_5
// LLVM-MCA-END
