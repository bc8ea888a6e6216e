# pointer chasing through the load pipe
ldr	x0, [x0]
add	x1, x1, #1
