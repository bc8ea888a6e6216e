# seven dependent adds (one chain through rax)
addq	$1, %rax
addq	$1, %rax
addq	$1, %rax
addq	$1, %rax
addq	$1, %rax
addq	$1, %rax
addq	$1, %rax
