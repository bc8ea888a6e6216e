# six independent adds on two integer pipes
add	x0, x0, #1
add	x1, x1, #1
add	x2, x2, #1
add	x3, x3, #1
add	x4, x4, #1
add	x5, x5, #1
