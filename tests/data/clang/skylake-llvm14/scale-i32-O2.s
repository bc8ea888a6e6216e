# scale-i32-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/scale-i32.c
# LLVM-MCA-BEGIN scale-i32-O2
.LBB0_6:
	vpmulld	(%rdi,%rcx,4), %ymm0, %ymm2
	vpmulld	32(%rdi,%rcx,4), %ymm0, %ymm3
	vpmulld	64(%rdi,%rcx,4), %ymm0, %ymm4
	vpmulld	96(%rdi,%rcx,4), %ymm0, %ymm5
	vpaddd	%ymm1, %ymm2, %ymm2
	vpaddd	%ymm1, %ymm3, %ymm3
	vpaddd	%ymm1, %ymm4, %ymm4
	vmovdqu	%ymm2, (%rdi,%rcx,4)
	vmovdqu	%ymm3, 32(%rdi,%rcx,4)
	vmovdqu	%ymm4, 64(%rdi,%rcx,4)
	vpaddd	%ymm1, %ymm5, %ymm2
	vmovdqu	%ymm2, 96(%rdi,%rcx,4)
	vpmulld	128(%rdi,%rcx,4), %ymm0, %ymm2
	vpmulld	160(%rdi,%rcx,4), %ymm0, %ymm3
	vpmulld	192(%rdi,%rcx,4), %ymm0, %ymm4
	vpmulld	224(%rdi,%rcx,4), %ymm0, %ymm5
	vpaddd	%ymm1, %ymm2, %ymm2
	vpaddd	%ymm1, %ymm3, %ymm3
	vpaddd	%ymm1, %ymm4, %ymm4
	vpaddd	%ymm1, %ymm5, %ymm5
	vmovdqu	%ymm2, 128(%rdi,%rcx,4)
	vmovdqu	%ymm3, 160(%rdi,%rcx,4)
	vmovdqu	%ymm4, 192(%rdi,%rcx,4)
	vmovdqu	%ymm5, 224(%rdi,%rcx,4)
	addq	$64, %rcx
	addq	$-2, %r9
	jne	.LBB0_6
# LLVM-MCA-END
