# a multiply recurrence beside an add
mul	x5, x5, x6
add	x7, x7, #1
