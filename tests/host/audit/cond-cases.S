/* cond-cases.S: conditional writes to r7 that the flags decide, for
 * tests/build/audit-cond.sh. Never run, only read. Each function has one
 * svc whose numbers the test checks (in the comments). */
	.syntax unified
	.text
	.arm
	.global	_start
_start:
	bl	musl_cond
	bl	taken
	bl	reset
	bl	undecided
	bl	unknown_cond
	mov	r7, #1		@ exit
	svc	#0

	@ musl's __pthread_cond_timedwait built -O3: on the ENOSYS path
	@ (r0 == -38, bne not taken) addne did not run: r7 is still 240.
	.type	musl_cond, %function
musl_cond:
	push	{r4, r7, lr}
	sub	sp, sp, #44
	mov	r7, #240	@ futex
	svc	#0
	cmn	r0, #38
	addne	r7, sp, #36
	bne	1f
	svc	#0		@ musl_cond: [240]
1:	add	sp, sp, #44
	pop	{r4, r7, pc}

	@ bne taken: movne ran, so 41 (dup), not 20.
	.type	taken, %function
taken:
	push	{r7, lr}
	mov	r7, #20
	cmp	r1, #0
	movne	r7, #41
	bne	2f
	mov	r7, #6
	svc	#0		@ (close)
	pop	{r7, pc}
2:	svc	#0		@ taken: [41]
	pop	{r7, pc}

	@ a compare between movne and bne: the branch says nothing of movne's
	@ flags, so both 20 and 41.
	.type	reset, %function
reset:
	push	{r7, lr}
	mov	r7, #20
	cmp	r1, #0
	movne	r7, #41
	cmp	r2, #0
	bne	3f
	pop	{r7, pc}
3:	svc	#0		@ reset: [20, 41]
	pop	{r7, pc}

	@ nothing decides moveq: both.
	.type	undecided, %function
undecided:
	push	{r7, lr}
	mov	r7, #20
	cmp	r1, #0
	moveq	r7, #54
	svc	#0		@ undecided: [20, 54]
	pop	{r7, pc}

	@ ldrne may run (undecided) and loads what the audit cannot know:
	@ unresolved, 20 kept.
	.type	unknown_cond, %function
unknown_cond:
	push	{r7, lr}
	mov	r7, #20
	cmp	r1, #0
	ldrne	r7, [r0]
	svc	#0		@ unknown_cond: [20], unresolved
	pop	{r7, pc}
