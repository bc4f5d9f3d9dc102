/*
 * trampoline.S: int il_call_on_stack(uintptr_t sp, int (*fn)(int, char **,
 * char **), int argc, char **argv, char **envp)
 *
 * Calls fn(argc, argv, envp) with the stack pointer set to sp (16-byte
 * aligned, as both ABIs require at a call), then returns fn's result on
 * the original stack.  This is how main runs at an offset or pinned
 * address (setup.c).  The frame pointer keeps the old stack, and the CFI
 * says so, so debuggers and unwinders walk through it.
 */
#if defined(__x86_64__)
	.text
	.globl	il_call_on_stack
	.hidden	il_call_on_stack
	.type	il_call_on_stack, @function
il_call_on_stack:
	.cfi_startproc
#ifdef __CET__
	endbr64
#endif
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
#endif
	.section .note.GNU-stack,"",%progbits
