# a multiply feeding an add, and a scalar multiply recurrence
mulps	%xmm0, %xmm1
addps	%xmm1, %xmm2
mulsd	%xmm3, %xmm3
