# vector zero idioms (vxorps, pxor) and subl beside a non-idiom vxorps
vxorps	%xmm0, %xmm0, %xmm0
vmulpd	%ymm0, %ymm0, %ymm0
pxor	%xmm1, %xmm1
vxorps	%xmm1, %xmm2, %xmm2
subl	%eax, %eax
