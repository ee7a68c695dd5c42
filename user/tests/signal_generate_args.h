/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * signal:signal_generate's arguments as the kernel's BTF describes them
 * (rt_btf_tracepoint()), an initializer of struct rt_func_arg_descs for
 * the tests that print and record named arguments.
 */
#ifndef RINGTRACE_TESTS_SIGNAL_GENERATE_ARGS_H
#define RINGTRACE_TESTS_SIGNAL_GENERATE_ARGS_H

#define SIGNAL_GENERATE_ARGS {						\
	.nr_args = 5,							\
	.arg = {							\
		{ .name = "sig", .size = 4, .is_signed = 1 },		\
		{ .name = "info", .size = 8, .is_ptr = 1 },		\
		{ .name = "task", .size = 8, .is_ptr = 1 },		\
		{ .name = "group", .size = 4, .is_signed = 1 },		\
		{ .name = "result", .size = 4, .is_signed = 1 },	\
	},								\
}

#endif /* RINGTRACE_TESTS_SIGNAL_GENERATE_ARGS_H */
