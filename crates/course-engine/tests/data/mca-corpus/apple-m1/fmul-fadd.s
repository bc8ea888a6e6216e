# a vector multiply recurrence feeding an add recurrence
fmul	v0.2d, v0.2d, v1.2d
fadd	v2.2d, v2.2d, v0.2d
