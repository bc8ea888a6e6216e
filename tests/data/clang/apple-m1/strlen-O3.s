// strlen-O3: the innermost loop of clang-14 -O3 --target=aarch64-linux-gnu -mcpu=apple-m1 tests/data/clang/src/strlen.c
// LLVM-MCA-BEGIN strlen-O3
.LBB0_1:
	ldrb	w9, [x0, x8]
	add	x8, x8, #1
	cbnz	w9, .LBB0_1
// LLVM-MCA-END
