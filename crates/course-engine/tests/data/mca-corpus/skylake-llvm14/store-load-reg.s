# two vector copies through a register-indexed address: a store, then a load
# llvm-mca assumes does not alias it
vmovupd (%rdi,%rax), %ymm0
vmovupd %ymm0, (%rsi,%rax)
vmovupd 32(%rdi,%rax), %ymm1
vmovupd %ymm1, 32(%rsi,%rax)
addq $64, %rax
