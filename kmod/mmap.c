// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping a CPU's ring into userspace, perf's way: one mapping holds the
 * control page and the data pages; pages are inserted lazily by the fault
 * handler; only the control page (for data_tail) can become writable.
 *
 * The mapping is VM_PFNMAP and has a pfn_mkwrite handler, so the core mm
 * installs every page read-only and asks pfn_mkwrite before making one
 * writable: it agrees for page 0 only. A store to a data page, first touch
 * or not, ends in SIGBUS. The pages belong to the ring, which lives as long
 * as the session, which lives as long as the file, which every mapping
 * pins: the mapping never outlives its pages.
 */
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "lib/compat.h"
#include "mmap.h"
#include "session/session.h"

unsigned int rt_max_ring_pages = 16384;	/* 64 MiB with 4 KiB pages */
module_param_named(max_ring_pages, rt_max_ring_pages, uint, 0444);
MODULE_PARM_DESC(max_ring_pages,
		 "Largest ring a mapping may ask for, in data pages (a power of two)");

static unsigned long rt_vma_ring_page(const struct vm_fault *vmf)
{
	return vmf->pgoff - vmf->vma->vm_pgoff;
}

static vm_fault_t rt_vm_fault(struct vm_fault *vmf)
{
	struct rt_ring *ring = vmf->vma->vm_private_data;
	unsigned long pgoff = rt_vma_ring_page(vmf);
	struct page *page;

	if (pgoff && (vmf->flags & FAULT_FLAG_WRITE))
		return VM_FAULT_SIGBUS;
	page = rt_ring_map_page(ring, pgoff);
	if (!page)
		return VM_FAULT_SIGBUS;
	/* Read-only (write-notify): a store comes back via pfn_mkwrite. */
	return vmf_insert_pfn(vmf->vma, vmf->address, page_to_pfn(page));
}

static vm_fault_t rt_vm_pfn_mkwrite(struct vm_fault *vmf)
{
	return rt_vma_ring_page(vmf) == 0 ? 0 : VM_FAULT_SIGBUS;
}

/* A partial munmap/mprotect would leave a ring without its control page. */
static int rt_vm_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct rt_vm_ops = {
	.fault		= rt_vm_fault,
	.pfn_mkwrite	= rt_vm_pfn_mkwrite,
	.may_split	= rt_vm_may_split,
};

int rt_mmap_ring(struct rt_session *s, struct vm_area_struct *vma)
{
	const unsigned long cpu_shift = RINGTRACE_MMAP_CPU_SHIFT - PAGE_SHIFT;
	unsigned long nr_pages = vma_pages(vma);
	/* A CPU, or in a per-thread session a thread's index. */
	unsigned long slot = vma->vm_pgoff >> cpu_shift;
	struct rt_ring *ring;

	/* MAP_SHARED sets VM_MAYSHARE (VM_SHARED only if writable). */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (vma->vm_pgoff & ((1UL << cpu_shift) - 1))
		return -EINVAL;
	/* 1 control page + 2^n data pages. */
	if (nr_pages < 2 || !is_power_of_2(nr_pages - 1) ||
	    nr_pages - 1 > rt_max_ring_pages)
		return -EINVAL;

	ring = rt_session_get_ring(s, slot, nr_pages - 1);
	if (IS_ERR(ring))
		return PTR_ERR(ring);

	/*
	 * VM_IO as well: madvise(MADV_DOFORK) refuses VM_IO mappings, so
	 * VM_DONTCOPY stays and a child never inherits a ring.
	 */
	rt_vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTCOPY | VM_DONTEXPAND |
			     VM_DONTDUMP);
	rt_vm_flags_clear(vma, VM_MAYEXEC);
	vma->vm_ops = &rt_vm_ops;
	vma->vm_private_data = ring;
	return 0;
}
