/* reach-cases.S: the reachability cases of the static audit, for
 * tests/build/audit-reach.sh. Never run, only read. Numbers in the comments;
 * the test holds the same lists.
 *   reported:     exit (1) and getpid (20), direct from _start;
 *                 dup (41) in via_ptr (Thumb), only through a pointer in
 *                 ops_table, which _start references;
 *                 fcntl (55) in via_nested, through inner_table, which only
 *                 ops_table points at;
 *                 ioctl (54) in via_init, only through .init_array.
 *   not reported: mkdir (39) in dead_fn, which nothing calls;
 *                 close (6) in dead_ptr_fn, whose only pointer is in
 *                 dead_table, a sized object nothing references. */
	.syntax unified
	.text
	.arm
	.global	_start
	.type	_start, %function
_start:
	bl	direct_fn
	ldr	r0, =ops_table
	ldr	r1, [r0]
	blx	r1		@ an indirect call: the target is not in the code
	mov	r7, #1		@ exit
	svc	#0
	.ltorg
	.size	_start, .-_start

	.type	direct_fn, %function
direct_fn:
	push	{r7, lr}
	mov	r7, #20		@ getpid
	svc	#0
	pop	{r7, pc}
	.size	direct_fn, .-direct_fn

	.type	dead_fn, %function
dead_fn:
	push	{r7, lr}
	mov	r7, #39		@ mkdir: unreachable
	svc	#0
	pop	{r7, pc}
	.size	dead_fn, .-dead_fn

	.type	via_init, %function
via_init:
	push	{r7, lr}
	mov	r7, #54		@ ioctl: an .init_array entry
	svc	#0
	pop	{r7, pc}
	.size	via_init, .-via_init

	.type	via_nested, %function
via_nested:
	push	{r7, lr}
	mov	r7, #55		@ fcntl: a pointer in a data object pointed to by another
	svc	#0
	pop	{r7, pc}
	.size	via_nested, .-via_nested

	.type	dead_ptr_fn, %function
dead_ptr_fn:
	push	{r7, lr}
	mov	r7, #6		@ close: its only pointer is in an unreferenced object
	svc	#0
	pop	{r7, pc}
	.size	dead_ptr_fn, .-dead_ptr_fn

	.thumb
	.type	via_ptr, %function
	.thumb_func
via_ptr:
	push	{r7, lr}
	movs	r7, #41		@ dup: Thumb, through a function pointer (Thumb bit set)
	svc	#0
	pop	{r7, pc}
	.size	via_ptr, .-via_ptr

	.data
	.type	ops_table, %object
ops_table:
	.word	via_ptr
	.word	inner_table
	.size	ops_table, .-ops_table

	.type	inner_table, %object
inner_table:
	.word	via_nested
	.size	inner_table, .-inner_table

	.type	dead_table, %object
dead_table:
	.word	dead_ptr_fn
	.size	dead_table, .-dead_table

	.section .init_array, "aw", %init_array
	.word	via_init
