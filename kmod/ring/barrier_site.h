/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marks for scripts/barrier-check (Documentation/protocol.rst, "The
 * barriers on arm64, checked").
 *
 * RT_BARRIER_SITE(letter, base) goes right before the ring-protocol access
 * the letter names (the data_head store for B, the data_tail load for A,
 * ...), where @base is the pointer that access is made through. It emits
 * no instruction: it records, in the section .discard.rt_barrier.LETTER,
 * the address it sits at and the name of the register holding @base
 * (.discard: nothing of it reaches the loaded module). The checker finds
 * the access as the first one through that register after the mark,
 * wherever the compiler inlined it, and verifies the barrier beside it; a
 * mark that disappears with its access fails the check too (it counts
 * them). The asm is a compiler barrier, so
 * the access cannot move above the mark.
 */
#ifndef _RINGTRACE_BARRIER_SITE_H
#define _RINGTRACE_BARRIER_SITE_H

#define RT_BARRIER_SITE(letter, base)					\
	({								\
		asm volatile("1:\n"					\
			     ".pushsection .discard.rt_barrier." letter	\
			     ",\"\"\n"					\
			     ".balign 8\n"				\
			     ".quad 1b\n"				\
			     ".asciz \"%0\"\n"				\
			     ".popsection" : : "r" (base) : "memory");	\
	})

#endif /* _RINGTRACE_BARRIER_SITE_H */
