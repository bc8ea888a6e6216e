# multiply-add: forwarded through the first source, not the addend
fmadd	d0, d0, d1, d2
fmadd	d3, d4, d5, d3
