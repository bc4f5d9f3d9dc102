/*
 * trampoline.S: the code that must control the stack pointer exactly.
 *
 * x86-64:
 *   __libc_start_main   the hook _start calls: why hooked, to get in
 *                       front of main (seeds 000, section 3.2).  A tail
 *                       jump into glibc's, with main replaced by
 *                       il_main_entry: the stack is left exactly as
 *                       _start made it (its seventh argument, stack_end,
 *                       is on it), so glibc's frames and main's sit where
 *                       they would without us.  It must never leave a
 *                       frame of its own, change an argument but main, or
 *                       call anything that allocates (il_start_hook only
 *                       resolves glibc's functions).
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
 * (il_call_on_stack and friends, which the finish path uses, are in
 * stack.S.)
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
	movl	il(%rip), %edi		/* il.main_args: the first member */
	movq	il+8(%rip), %rsi
	movq	il+16(%rip), %rdx
	jmp	*il+24(%rip)
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

#endif
	.section .note.GNU-stack,"",%progbits
