/* strex.S: `strex rd, rt, [rn]` writes its status (0 or 1) to rd. Here rd
 * is r7, after r7 was set to getpid (20): the svc's number is the status,
 * not 20, and the audit must not resolve it to 20
 * (tests/build/audit-unresolved.sh). Never run, only read. */
	.syntax unified
	.text
	.arm
	.global	_start
_start:
	bl	status
	mov	r7, #1		@ exit
	svc	#0

	.type	status, %function
status:
	push	{r7, lr}
	mov	r7, #20		@ getpid, overwritten by the strex below
	ldrex	r1, [r0]
	strex	r7, r1, [r0]
	svc	#0
	pop	{r7, pc}
