# max-i32-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/max-i32.c
# LLVM-MCA-BEGIN max-i32-O2
.LBB0_5:
	vpmaxsd	(%rdi,%rax,4), %ymm0, %ymm0
	vpmaxsd	32(%rdi,%rax,4), %ymm1, %ymm1
	vpmaxsd	64(%rdi,%rax,4), %ymm2, %ymm2
	vpmaxsd	96(%rdi,%rax,4), %ymm3, %ymm3
	vpmaxsd	128(%rdi,%rax,4), %ymm0, %ymm0
	vpmaxsd	160(%rdi,%rax,4), %ymm1, %ymm1
	vpmaxsd	192(%rdi,%rax,4), %ymm2, %ymm2
	vpmaxsd	224(%rdi,%rax,4), %ymm3, %ymm3
	addq	$64, %rax
	addq	$-2, %rdx
	jne	.LBB0_5
# LLVM-MCA-END
