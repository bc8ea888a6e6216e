# the divide box of Lesson 23.1 §7 on LLVM 14
vdivpd	%ymm0, %ymm1, %ymm2
vdivpd	%ymm0, %ymm1, %ymm3
vmulpd	%ymm0, %ymm1, %ymm4
vmulpd	%ymm0, %ymm1, %ymm5
