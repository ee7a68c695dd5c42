/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The reader's half of the ring protocol, and the ONLY place in user/ that
 * uses atomics or barriers. Every other file calls these helpers, so the
 * ordering rules can be audited here, next to the comment that names the
 * kernel barrier each one pairs with.
 *
 * The protocol (uapi/linux/ringtrace.h, Documentation/protocol.rst, and
 * perf's kernel/events/ring_buffer.c use the same letters):
 *
 *   kernel (producer)                   reader (consumer)
 *   if (LOAD data_tail) {               LOAD-ACQUIRE data_head     (C)
 *           (A) control dependency      LOAD $data
 *     STORE $data                       STORE-RELEASE data_tail    (D)
 *     smp_wmb()  (B)
 *     STORE data_head
 *   }
 *
 * B pairs with C: once the reader sees a head value, it sees every record
 * byte written before that head was published.
 * A pairs with D: the kernel does not overwrite bytes until the reader's
 * loads of them are complete.
 *
 * The fields are plain __u64 in the ABI structures (the ABI must not
 * depend on <stdatomic.h>), so the helpers take __u64 pointers and use the
 * GCC/Clang __atomic builtins, which work on ordinary objects. 64-bit
 * loads and stores are single-copy atomic on every 64-bit target.
 */
#ifndef RINGTRACE_BARRIER_H
#define RINGTRACE_BARRIER_H

#include <stdint.h>

#include <linux/types.h>

/*
 * Marks for scripts/barrier-check, as kmod/ring/barrier_site.h's: right before
 * the access the letter names, made through @base. It emits no
 * instruction, only the mark's address and @base's register, in a section
 * of its own (not loaded); the checker finds the access in the arm64
 * objects and verifies the ordering beside it. Also a compiler barrier.
 */
#define RT_BARRIER_SITE(letter, base)					\
	__asm__ __volatile__("1:\n"					\
		".pushsection .discard.rt_barrier." letter ",\"\"\n"	\
		".balign 8\n"						\
		".quad 1b\n"						\
		".asciz \"%0\"\n"					\
		".popsection" : : "r" (base) : "memory")

/*
 * (C) Read the producer's head. Pairs with the kernel's smp_wmb() (B)
 * before it stores data_head: record bytes below the returned value are
 * complete and may be read after this load.
 */
static inline uint64_t rt_load_head_acquire(const __u64 *head)
{
	RT_BARRIER_SITE("C", head);
	return __atomic_load_n(head, __ATOMIC_ACQUIRE);
}

/*
 * (D) Hand consumed bytes back to the producer. Pairs with the kernel's
 * control dependency (A) after it loads data_tail: every load of record
 * bytes below @tail is complete before the kernel can see the new tail and
 * reuse the space.
 */
static inline void rt_store_tail_release(__u64 *tail, uint64_t value)
{
	RT_BARRIER_SITE("D", tail);
	__atomic_store_n(tail, value, __ATOMIC_RELEASE);
}

/*
 * Read a kernel-maintained field of the control page that carries no
 * ordering (counters, data_offset, data_size, version, our own previous
 * data_tail): READ_ONCE semantics, so the compiler reads it exactly once
 * and never tears it. Nothing pairs with it; values may be stale.
 */
static inline uint64_t rt_load_u64_once(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline uint32_t rt_load_u32_once(const __u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * the flight recorder's snapshot protocol (overwrite mode,
 * Documentation/protocol.rst). The kernel stores overwrite_tail, then
 * smp_wmb() (E), then the record bytes that overwrite what lies below
 * that tail. The reader loads data_head (C), overwrite_tail, copies the
 * records between them, then:
 *
 * (F) rt_load_tail_after_copy() re-reads overwrite_tail after the copy,
 * behind an acquire fence (smp_rmb()'s role) that orders every load of
 * record bytes before it. Pairs with (E): if the copy saw any byte of a
 * record that overwrote old ones, the tail loaded after F is past those
 * old records, so the reader discards them.
 */
static inline uint64_t rt_load_tail_after_copy(const __u64 *otail)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	RT_BARRIER_SITE("F", otail);
	return __atomic_load_n(otail, __ATOMIC_RELAXED);
}

/*
 * Producer-side helpers, for the userspace stand-ins of the kernel (the
 * unit tests' fake producer and the benchmark). They emulate the kernel's
 * half with C11 orderings that are at least as strong:
 *
 * rt_producer_load_tail() plays the role of "LOAD data_tail" + (A): an
 * acquire load orders our later data stores after it, which is what the
 * kernel's control dependency achieves. Pairs with (D).
 */
static inline uint64_t rt_producer_load_tail(const __u64 *tail)
{
	return __atomic_load_n(tail, __ATOMIC_ACQUIRE);
}

/*
 * rt_producer_publish_head() plays the role of smp_wmb() (B) + "STORE
 * data_head": the release store orders the record bytes before the new
 * head. Pairs with (C).
 */
static inline void rt_producer_publish_head(__u64 *head, uint64_t value)
{
	__atomic_store_n(head, value, __ATOMIC_RELEASE);
}

#endif /* RINGTRACE_BARRIER_H */
