# dot-i32-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/dot-i32.c
# LLVM-MCA-BEGIN dot-i32-O2
.LBB0_7:
	vmovdqu	(%rsi,%rax,4), %ymm4
	vmovdqu	32(%rsi,%rax,4), %ymm5
	vmovdqu	64(%rsi,%rax,4), %ymm6
	vpmulld	(%rdi,%rax,4), %ymm4, %ymm4
	vmovdqu	96(%rsi,%rax,4), %ymm7
	vpaddd	%ymm0, %ymm4, %ymm0
	vpmulld	32(%rdi,%rax,4), %ymm5, %ymm4
	vpaddd	%ymm2, %ymm4, %ymm2
	vpmulld	64(%rdi,%rax,4), %ymm6, %ymm4
	vpmulld	96(%rdi,%rax,4), %ymm7, %ymm5
	vpaddd	%ymm1, %ymm4, %ymm1
	vpaddd	%ymm3, %ymm5, %ymm3
	vmovdqu	128(%rsi,%rax,4), %ymm4
	vmovdqu	160(%rsi,%rax,4), %ymm5
	vmovdqu	192(%rsi,%rax,4), %ymm6
	vmovdqu	224(%rsi,%rax,4), %ymm7
	vpmulld	128(%rdi,%rax,4), %ymm4, %ymm4
	vpmulld	160(%rdi,%rax,4), %ymm5, %ymm5
	vpaddd	%ymm0, %ymm4, %ymm0
	vpaddd	%ymm2, %ymm5, %ymm2
	vpmulld	192(%rdi,%rax,4), %ymm6, %ymm4
	vpaddd	%ymm1, %ymm4, %ymm1
	vpmulld	224(%rdi,%rax,4), %ymm7, %ymm4
	vpaddd	%ymm3, %ymm4, %ymm3
	addq	$64, %rax
	addq	$-2, %r9
	jne	.LBB0_7
# LLVM-MCA-END
