# a vector divide recurrence and an add
fdiv	v0.2d, v0.2d, v1.2d
fadd	v2.2d, v2.2d, v0.2d
