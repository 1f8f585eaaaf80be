@ Test programs for tests/host/audit-gates.sh: an argument that decides an
@ option (audit/gates.py), resolved at the svc as its number is. One file,
@ one program per CASE (arm-linux-gnueabi-as --defsym CASE=N):
@   1  clock_gettime64(CLOCK_REALTIME_COARSE) through a wrapper (glibc's time())
@   2  clock_gettime64 with the clock from the stack (argc): not known
@   3  clock_gettime64(CLOCK_REALTIME), (CLOCK_MONOTONIC): the stub's clocks
@   4  socket(AF_UNIX) and socket(AF_INET) at svc sites, epoll_wait, futex
@   5  socket with the family from the stack: not known
@   6  socket through a wrapper, AF_UNIX at one call and the stack at the other
	.syntax unified
	.arm
	.text

	.global _start
	.type _start, %function
_start:
.if CASE == 1
	mov	r0, #5
	bl	gettime
.endif
.if CASE == 2
	ldr	r0, [sp]
	bl	gettime
.endif
.if CASE == 3
	mov	r0, #0
	bl	gettime
	mov	r0, #1
	bl	gettime
.endif
.if CASE == 4
	mov	r0, #1
	mov	r1, #1
	mov	r2, #0
	mov	r7, #281
	svc	#0
	mov	r0, #2
	mov	r7, #281
	svc	#0
	mov	r7, #252
	svc	#0
	mov	r7, #240
	svc	#0
.endif
.if CASE == 5
	ldr	r0, [sp]
	mov	r1, #1
	mov	r7, #281
	svc	#0
.endif
.if CASE == 6
	mov	r0, #1
	bl	sock
	ldr	r0, [sp]
	bl	sock
.endif
	mov	r0, #0
	mov	r7, #248
	svc	#0
1:	b	1b
	.size _start, .-_start

@ gettime(clock): a libc-like wrapper, the clock id in r0
	.type gettime, %function
gettime:
	push	{r7, lr}
	ldr	r1, =buf
	movw	r7, #403
	svc	#0
	pop	{r7, pc}
	.ltorg
	.size gettime, .-gettime

@ sock(family): socket's wrapper, the family in r0
	.type sock, %function
sock:
	push	{r7, lr}
	mov	r1, #1
	mov	r7, #281
	svc	#0
	pop	{r7, pc}
	.size sock, .-sock

	.bss
buf:	.space	16
