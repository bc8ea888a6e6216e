# multiply-add through the addend, and a multiply chain
madd	x0, x1, x2, x0
mul	x3, x3, x4
