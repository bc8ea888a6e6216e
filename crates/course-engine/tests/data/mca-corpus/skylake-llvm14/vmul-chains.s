# three independent vmulpd recurrences
vmulpd	%ymm0, %ymm0, %ymm0
vmulpd	%ymm1, %ymm1, %ymm1
vmulpd	%ymm2, %ymm2, %ymm2
