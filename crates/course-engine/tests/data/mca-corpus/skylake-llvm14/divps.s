# two independent single-precision divides and an add
divps	%xmm0, %xmm1
divps	%xmm2, %xmm3
addps	%xmm1, %xmm4
