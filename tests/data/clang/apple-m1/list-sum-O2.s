// list-sum-O2: the innermost loop of clang-14 -O2 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/list-sum.c
// LLVM-MCA-BEGIN list-sum-O2
.LBB0_1:
	ldp	x0, x9, [x0]
	add	x8, x9, x8
	cbnz	x0, .LBB0_1
// LLVM-MCA-END
