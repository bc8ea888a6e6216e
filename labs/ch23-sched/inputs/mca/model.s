imulq %rsi, %rdi
vdivpd %ymm2, %ymm1, %ymm0
movq (%rdi), %rax
