# a square root and a divide share the divider
vsqrtpd	%ymm0, %ymm1
vdivpd	%ymm2, %ymm3, %ymm4
addq	$1, %rax
