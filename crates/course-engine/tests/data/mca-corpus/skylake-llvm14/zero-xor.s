# a multiply chain cut by a zero idiom every iteration (xorq of a register with itself)
imulq	%rax, %rax
xorq	%rax, %rax
addq	%rax, %rbx
