# cmul-O2: the innermost loop of clang-14 -O2 --target=x86_64-unknown-linux-gnu -march=skylake tests/data/clang/src/cmul.c
# LLVM-MCA-BEGIN cmul-O2
.LBB0_6:
	vmovupd	(%rdx,%rbx,8), %ymm0
	vmovupd	(%r8,%rbx,8), %ymm1
	vmovupd	(%rcx,%rbx,8), %ymm2
	vmovupd	(%r9,%rbx,8), %ymm3
	vmulpd	%ymm2, %ymm3, %ymm4
	vfmsub231pd	%ymm1, %ymm0, %ymm4
	vmovupd	%ymm4, (%rdi,%rbx,8)
	vmulpd	%ymm2, %ymm1, %ymm1
	vfmadd231pd	%ymm3, %ymm0, %ymm1
	vmovupd	%ymm1, (%rsi,%rbx,8)
	vmovupd	32(%rdx,%rbx,8), %ymm0
	vmovupd	32(%r8,%rbx,8), %ymm1
	vmovupd	32(%rcx,%rbx,8), %ymm2
	vmovupd	32(%r9,%rbx,8), %ymm3
	vmulpd	%ymm2, %ymm3, %ymm4
	vfmsub231pd	%ymm1, %ymm0, %ymm4
	vmovupd	%ymm4, 32(%rdi,%rbx,8)
	vmulpd	%ymm2, %ymm1, %ymm1
	vfmadd231pd	%ymm3, %ymm0, %ymm1
	vmovupd	%ymm1, 32(%rsi,%rbx,8)
	vmovupd	64(%rdx,%rbx,8), %ymm0
	vmovupd	64(%r8,%rbx,8), %ymm1
	vmovupd	64(%rcx,%rbx,8), %ymm2
	vmovupd	64(%r9,%rbx,8), %ymm3
	vmulpd	%ymm2, %ymm3, %ymm4
	vfmsub231pd	%ymm1, %ymm0, %ymm4
	vmovupd	%ymm4, 64(%rdi,%rbx,8)
	vmulpd	%ymm2, %ymm1, %ymm1
	vfmadd231pd	%ymm3, %ymm0, %ymm1
	vmovupd	%ymm1, 64(%rsi,%rbx,8)
	vmovupd	96(%rdx,%rbx,8), %ymm0
	vmovupd	96(%r8,%rbx,8), %ymm1
	vmovupd	96(%rcx,%rbx,8), %ymm2
	vmovupd	96(%r9,%rbx,8), %ymm3
	vmulpd	%ymm2, %ymm3, %ymm4
	vfmsub231pd	%ymm1, %ymm0, %ymm4
	vmovupd	%ymm4, 96(%rdi,%rbx,8)
	vmulpd	%ymm2, %ymm1, %ymm1
	vfmadd231pd	%ymm3, %ymm0, %ymm1
	vmovupd	%ymm1, 96(%rsi,%rbx,8)
	addq	$16, %rbx
	addq	$-4, %rax
	jne	.LBB0_6
# LLVM-MCA-END
