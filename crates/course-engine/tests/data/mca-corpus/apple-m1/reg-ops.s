# register-register ALU operations hold a shifter pipe two cycles
add	x1, x1, x2
eor	x3, x3, x4
and	x5, x5, x1
add	x6, x6, #1
