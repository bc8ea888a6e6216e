# a chain of dependent divides, each iteration's first quotient also
# feeding a multiply: the timeline passes 80 cycles
vdivpd	%ymm0, %ymm1, %ymm2
vdivpd	%ymm0, %ymm2, %ymm1
vmulpd	%ymm2, %ymm3, %ymm4
