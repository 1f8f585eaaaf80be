/* boundary-cases.S: code no function symbol covers, for
 * tests/build/audit-accounted.sh. The code at .Lhidden has no symbol (as a
 * static function whose symbol was stripped): objdump shows it as the tail
 * of dead_fn, which nothing calls. _start calls it through the pointer in
 * hook, so it runs: getpid (20) is made. Reachability, which takes
 * functions from the symbols, would drop that site with dead_fn's; the
 * audit must count it. */
	.syntax unified
	.arm
	.text
	.global _start
	.type _start, %function
_start:
	ldr r0, =hook
	ldr r0, [r0]
	blx r0
	mov r0, #0
	mov r7, #1		@ exit
	svc #0
	.ltorg
	.size _start, .-_start

	.global dead_fn
	.type dead_fn, %function
dead_fn:			@ nothing calls it
	mov r7, #39		@ mkdir
	svc #0
	bx lr
	.size dead_fn, .-dead_fn
.Lhidden:			@ no symbol: called through hook
	push {r7, lr}
	mov r7, #20		@ getpid
	svc #0
	pop {r7, pc}

	.data
	.global hook
	.type hook, %object
hook:
	.word .Lhidden
	.size hook, 4
