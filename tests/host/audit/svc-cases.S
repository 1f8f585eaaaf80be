/* svc-cases.S: one svc site per way a syscall number reaches r7, for the
 * static audit's test (tests/build/audit-static.sh). Never run, only read.
 * Expected numbers in the comments; the test holds the same list. */
	.syntax unified
	.text
	.arm
	.global	_start
_start:
	bl	imm_arm
	bl	movw_movt
	bl	literal
	bl	regmove
	bl	arith
	bl	cond
	mov	r0, #4		@ write, through the wrapper
	bl	wrapper
	mov	r0, #20		@ getpid, through the wrapper
	bl	wrapper
	mov	r0, #41		@ dup, through a variadic-style wrapper (stack slot)
	bl	stacked
	blx	thumb_fn
	bl	oabi
	bl	unknown
	mov	r7, #1		@ exit
	svc	#0

	.type	imm_arm, %function
imm_arm:
	push	{r7, lr}
	mov	r7, #3		@ read
	svc	#0
	pop	{r7, pc}

	.type	movw_movt, %function
movw_movt:
	push	{r7, lr}
	movw	r7, #0x0005	@ 0x0f0005: ARM private set_tls
	movt	r7, #0x000f
	svc	#0
	pop	{r7, pc}

	.type	literal, %function
literal:
	push	{r7, lr}
	ldr	r7, =397	@ statx, from the literal pool
	svc	#0
	pop	{r7, pc}
	.ltorg

	.type	regmove, %function
regmove:
	push	{r4, r7, lr}
	mov	r4, #6		@ close, through r4
	mov	r7, r4
	svc	#0
	pop	{r4, r7, pc}

	.type	arith, %function
arith:
	push	{r7, lr}
	mov	r7, #256
	add	r7, r7, #42	@ 298
	svc	#0
	pop	{r7, pc}

	.type	cond, %function
cond:
	push	{r7, lr}
	cmp	r0, #0
	moveq	r7, #54		@ ioctl or
	movne	r7, #55		@ fcntl
	svc	#0
	pop	{r7, pc}

	.type	wrapper, %function
wrapper:			@ like syscall(): the number in r0
	push	{r7, lr}
	mov	r7, r0
	mov	r0, r1
	svc	#0
	pop	{r7, pc}

	.type	stacked, %function
stacked:			@ like musl's syscall(): r0-r3 spilled, r7 reloaded
	push	{r0, r1, r2, r3}
	push	{r7, lr}
	sub	sp, sp, #8
	ldr	r7, [sp, #16]
	svc	#0
	add	sp, sp, #8
	pop	{r7, lr}
	add	sp, sp, #16
	bx	lr

	.type	oabi, %function
oabi:
	svc	#0x900004	@ OABI write: flagged
	bx	lr

	.type	unknown, %function
unknown:
	push	{r7, lr}
	ldr	r7, [r0]	@ from memory: cannot be resolved
	svc	#0
	pop	{r7, pc}

	.thumb
	.type	thumb_fn, %function
	.thumb_func
thumb_fn:
	push	{r7, lr}
	movs	r7, #39		@ mkdir, Thumb-2
	svc	#0
	pop	{r7, pc}
