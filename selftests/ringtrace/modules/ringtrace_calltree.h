/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call tree ringtrace_calltree.c runs on every read of its file:
 * not static, so that each function keeps its own symbol whatever the
 * optimiser does (graph_tree.sh traces them by name).
 */
#ifndef _RINGTRACE_CALLTREE_H
#define _RINGTRACE_CALLTREE_H

void ringtrace_ct_outer(void);
void ringtrace_ct_first(void);
void ringtrace_ct_middle(void);
void ringtrace_ct_inner(void);

#endif
