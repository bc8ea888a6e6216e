# a store of one value, then a load through another register that feeds it
movq %rax, (%rsi)
movq (%rdi), %rbx
addq %rbx, %rax
