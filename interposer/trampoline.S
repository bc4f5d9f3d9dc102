/*
 * trampoline.S: the code that must control the stack pointer exactly.
 *
 * x86-64:
 *   __libc_start_main   the hook _start calls.  A tail jump into glibc's,
 *                       with main replaced by il_main_entry: the stack is
 *                       left exactly as _start made it (its seventh
 *                       argument, stack_end, is on it), so glibc's frames
 *                       and main's sit where they would without us.
 *   il_main_entry       what glibc calls as main.  Saves the registers
 *                       glibc may expect preserved, calls
 *                       il_main_prepare(argc, argv, envp, entry_sp), puts
 *                       them back, and jumps to main with the stack
 *                       pointer prepare returned (entry_sp, or lower by
 *                       the offset, or the pin), the return address there
 *                       replaced by il_main_return.  If prepare returns 0
 *                       (a shadow stack is active, where a replaced
 *                       return address would fault), it jumps to
 *                       il_main_fallback, an ordinary C function glibc
 *                       then returns from.
 *   il_main_return      where main returns: exit(main's value), through
 *                       il_main_returned.  The end of the call chain for
 *                       unwinders.
 * x86-64 and AArch64:
 *   il_call_on_stack(sp, fn, argc, argv, envp)
 *                       calls fn(argc, argv, envp) with the stack pointer
 *                       sp, then returns fn's result on the original
 *                       stack: main in the fallback, and the signal
 *                       handler's record on a stack of its own.
 *   il_shadow_stack_active()   1 if a CET shadow stack is on.
 */
#if defined(__x86_64__)
#ifdef __CET__
#define ENDBR endbr64
#else
#define ENDBR
#endif
	.text

	.globl	__libc_start_main
	.type	__libc_start_main, @function
__libc_start_main:
	.cfi_startproc
	ENDBR
	/* rdi main, rsi argc, rdx argv, rcx init, r8 fini, r9 rtld_fini,
	 * 8(%rsp) stack_end: keep them all while il_start_hook runs */
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	il_start_hook		/* (main) -> glibc's __libc_start_main */
	movq	%rax, %r11
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	leaq	il_main_entry(%rip), %rdi
	jmp	*%r11
	.cfi_endproc
	.size	__libc_start_main, .-__libc_start_main

	.globl	il_main_entry
	.hidden	il_main_entry
	.type	il_main_entry, @function
il_main_entry:
	.cfi_startproc
	ENDBR
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	subq	$8, %rsp		/* 16-byte aligned for the call */
	.cfi_adjust_cfa_offset 8
	leaq	56(%rsp), %rcx		/* the stack pointer glibc entered us with */
	call	il_main_prepare
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	testq	%rax, %rax
	jz	1f
	movq	%rax, %rsp		/* main's stack pointer on entry */
	leaq	il_main_return(%rip), %rcx
	movq	%rcx, (%rsp)		/* main returns to us, not to glibc */
	movl	il_main_args(%rip), %edi
	movq	il_main_args+8(%rip), %rsi
	movq	il_main_args+16(%rip), %rdx
	jmp	*il_main_args+24(%rip)
1:	jmp	il_main_fallback
	.cfi_endproc
	.size	il_main_entry, .-il_main_entry

	.globl	il_main_return
	.hidden	il_main_return
	.type	il_main_return, @function
il_main_return:
	.cfi_startproc
	.cfi_undefined rip		/* the outermost frame */
	movl	%eax, %edi
	call	il_main_returned
	hlt
	.cfi_endproc
	.size	il_main_return, .-il_main_return

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
