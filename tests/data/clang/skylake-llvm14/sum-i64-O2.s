# sum-i64-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/sum-i64.c
# LLVM-MCA-BEGIN sum-i64-O2
.LBB0_7:
	vpaddq	(%rdi,%rdx,8), %ymm0, %ymm0
	vpaddq	32(%rdi,%rdx,8), %ymm1, %ymm1
	vpaddq	64(%rdi,%rdx,8), %ymm2, %ymm2
	vpaddq	96(%rdi,%rdx,8), %ymm3, %ymm3
	vpaddq	128(%rdi,%rdx,8), %ymm0, %ymm0
	vpaddq	160(%rdi,%rdx,8), %ymm1, %ymm1
	vpaddq	192(%rdi,%rdx,8), %ymm2, %ymm2
	vpaddq	224(%rdi,%rdx,8), %ymm3, %ymm3
	vpaddq	256(%rdi,%rdx,8), %ymm0, %ymm0
	vpaddq	288(%rdi,%rdx,8), %ymm1, %ymm1
	vpaddq	320(%rdi,%rdx,8), %ymm2, %ymm2
	vpaddq	352(%rdi,%rdx,8), %ymm3, %ymm3
	vpaddq	384(%rdi,%rdx,8), %ymm0, %ymm0
	vpaddq	416(%rdi,%rdx,8), %ymm1, %ymm1
	vpaddq	448(%rdi,%rdx,8), %ymm2, %ymm2
	vpaddq	480(%rdi,%rdx,8), %ymm3, %ymm3
	addq	$64, %rdx
	addq	$-4, %rax
	jne	.LBB0_7
# LLVM-MCA-END
