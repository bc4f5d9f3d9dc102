/*
 * stack.S: on the finish path, with no calls out.
 *
 *   il_call_on_stack(sp, fn, argc, argv, envp)
 *                       calls fn(argc, argv, envp) with the stack pointer
 *                       sp, then returns fn's result on the original
 *                       stack: main in the fallback entry (start.c), and
 *                       the signal handler's record on a stack of its own.
 *   il_restore_rt       (x86-64) the return path of our signal handler.
 *   il_shadow_stack_active()   1 if a CET shadow stack is on.
 */
#if defined(__x86_64__)
#ifdef __CET__
#define ENDBR endbr64
#else
#define ENDBR
#endif
	.text

	.globl	il_call_on_stack
	.hidden	il_call_on_stack
	.type	il_call_on_stack, @function
il_call_on_stack:
	.cfi_startproc
	ENDBR
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdi, %rsp
	movq	%rsi, %rax
	movl	%edx, %edi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	call	*%rax
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	il_call_on_stack, .-il_call_on_stack

/* The return path of our own signal handler (SA_RESTORER), as glibc's
 * __restore_rt: the very bytes that unwinders (libgcc, gdb) recognise as
 * a signal frame. */
	nop
	.globl	il_restore_rt
	.hidden	il_restore_rt
	.type	il_restore_rt, @function
il_restore_rt:
	movq	$15, %rax		/* rt_sigreturn */
	syscall
	.size	il_restore_rt, .-il_restore_rt

	.globl	il_shadow_stack_active
	.hidden	il_shadow_stack_active
	.type	il_shadow_stack_active, @function
il_shadow_stack_active:
	.cfi_startproc
	ENDBR
	xorl	%eax, %eax
	.byte	0xf3, 0x48, 0x0f, 0x1e, 0xc8	/* rdsspq %rax: a no-op without a shadow stack */
	testq	%rax, %rax
	setne	%al
	movzbl	%al, %eax
	ret
	.cfi_endproc
	.size	il_shadow_stack_active, .-il_shadow_stack_active

#elif defined(__aarch64__)
	.text
	.globl	il_call_on_stack
	.hidden	il_call_on_stack
	.type	il_call_on_stack, %function
il_call_on_stack:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa_register x29
	mov	sp, x0
	mov	x9, x1
	mov	w0, w2
	mov	x1, x3
	mov	x2, x4
	blr	x9
	mov	sp, x29
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa sp, 0
	ret
	.cfi_endproc
	.size	il_call_on_stack, .-il_call_on_stack

	.globl	il_shadow_stack_active
	.hidden	il_shadow_stack_active
	.type	il_shadow_stack_active, %function
il_shadow_stack_active:
	mov	w0, #0
	ret
	.size	il_shadow_stack_active, .-il_shadow_stack_active
#endif
	.section .note.GNU-stack,"",%progbits
