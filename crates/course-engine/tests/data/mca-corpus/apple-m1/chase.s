# pointer chasing: the address of each load is the previous load
ldr	x0, [x0]
add	x1, x1, #1
