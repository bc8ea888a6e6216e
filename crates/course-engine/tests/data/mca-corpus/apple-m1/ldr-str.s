# load, increment, store to another array
ldr	x1, [x0]
add	x1, x1, #1
str	x1, [x2]
add	x3, x3, #8
