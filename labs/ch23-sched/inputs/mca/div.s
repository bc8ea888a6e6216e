vdivpd %ymm0, %ymm1, %ymm2
vdivpd %ymm0, %ymm1, %ymm3
vmulpd %ymm0, %ymm1, %ymm4
vmulpd %ymm0, %ymm1, %ymm5
