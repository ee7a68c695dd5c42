// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Choosing a printer by format, and what printers share (see output.h). */
#include <string.h>

#include "ringtrace/output.h"
#include "ringtrace/record.h"

/* One namer per process: the tool sets it once, before the stream. */
static rt_frame_name_fn name_fn;
static void *name_arg;

void rt_output_set_frame_names(rt_frame_name_fn fn, void *arg)
{
	name_fn = fn;
	name_arg = arg;
}

static const char (*func_names)[RINGTRACE_FUNC_NAME_LEN];
static uint32_t nr_func_names;

void rt_output_set_func_names(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			      uint32_t nr)
{
	func_names = names;
	nr_func_names = nr;
}

static const struct rt_func_arg_descs *func_args;
static uint32_t nr_func_args;

void rt_output_set_func_args(const struct rt_func_arg_descs *descs,
			     uint32_t nr)
{
	func_args = descs;
	nr_func_args = nr;
}

const struct rt_func_arg_descs *rt_output_func_args(const struct rt_event *ev)
{
	uint32_t idx = ev->u.func.idx;

	if (idx >= nr_func_args || !func_args[idx].nr_args)
		return NULL;
	return &func_args[idx];
}

char *rt_output_fmt_arg(char *p, const struct rt_func_arg_desc *d,
			uint64_t v)
{
	unsigned int bits = d->size * 8u;
	uint64_t mask = bits < 64 ? (1ull << bits) - 1 : ~0ull;

	if (rt_output_arg_is_hex(d))
		return rt_fmt_hex(p, v);
	/* The register's bits past the argument's size are not its. */
	v &= mask;
	if (d->is_signed && (v >> (bits - 1)) & 1)
		return rt_fmt_i64(p, (int64_t)(v | ~mask));
	return rt_fmt_u64(p, v);
}

/* A func record's own keys in --perfetto and --ctf (see output.h). */
static const char *const record_keys[] = {
	"pid", "tid", "comm", "cpu", "func", "func_ip", "ret", "lat_ns",
	"nr_args", "args", "host_pid", "host_tid", "cgroup_id", "cgroup",
	"nr_kstack", "kstack", "nr_ustack", "ustack",
};

static bool key_taken(const char *key, char keys[][RT_OUTPUT_ARG_KEY_MAX],
		      uint32_t before)
{
	for (size_t i = 0; i < sizeof(record_keys) / sizeof(*record_keys); i++)
		if (!strcmp(key, record_keys[i]))
			return true;
	for (uint32_t i = 0; i < before; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

void rt_output_arg_keys(const struct rt_func_arg_descs *d, uint32_t nr,
			char keys[][RT_OUTPUT_ARG_KEY_MAX])
{
	if (nr > RT_FUNC_ARG_DESCS)
		nr = RT_FUNC_ARG_DESCS;
	for (uint32_t i = 0; i < nr; i++) {
		char *k = keys[i];
		size_t len = strnlen(d->arg[i].name, RT_FUNC_ARG_NAME_LEN - 1);

		memcpy(k, d->arg[i].name, len);
		k[len] = '\0';
		/*
		 * Each earlier key blocks one length at most: i + 1 prefixes
		 * of 5 bytes ("argN_") find a free one, within the room.
		 */
		while (key_taken(k, keys, i) &&
		       len + 5 < RT_OUTPUT_ARG_KEY_MAX) {
			memmove(k + 5, k, len + 1);
			memcpy(k, "arg", 3);
			k[3] = (char)('0' + i);
			k[4] = '_';
			len += 5;
		}
	}
}

static rt_func_name_fn func_name_fn;
static void *func_name_arg;

void rt_output_set_func_namer(rt_func_name_fn fn, void *arg)
{
	func_name_fn = fn;
	func_name_arg = arg;
}

/*
 * A func record's function: the name the session traced it by, or (on
 * replay) the namer's, the symbol its address falls in, bare, as the live
 * run named it (ringtrace-cat: the recording's symbols). Not a frame
 * name: "vfs_write+0x4" (past x86's ENDBR64) would make one function two
 * names.
 */
const char *rt_output_func_name_at(uint32_t idx, uint64_t ip)
{
	if (idx < nr_func_names)
		return func_names[idx];
	return func_name_fn ? func_name_fn(func_name_arg, ip) : NULL;
}

const char *rt_output_func_name(const struct rt_event *ev)
{
	return rt_output_func_name_at(ev->u.func.idx, ev->u.func.ip);
}

const char *rt_output_func_label(uint32_t idx, uint64_t ip, char *buf)
{
	const char *name = rt_output_func_name_at(idx, ip);

	if (name)
		return name;
	*rt_fmt_hex(buf, ip) = '\0';
	return buf;
}

bool rt_output_names_on(void)
{
	return name_fn != NULL;
}

const char *rt_output_frame_name(const struct rt_event *ev, bool kernel,
				 uint64_t ip)
{
	if (!name_fn)
		return NULL;
	return name_fn(name_arg, kernel, ev->pid, ev->comm, ip);
}

rt_print_fn rt_printer(enum rt_format format)
{
	switch (format) {
	case RT_FORMAT_TEXT:
		return rt_print_text;
	case RT_FORMAT_JSON:
		return rt_print_json;
	case RT_FORMAT_RAW:
		break;
	}
	return NULL;
}

char *rt_fmt_stack_frames(char *p, const unsigned char *f, uint32_t nr,
			  char quote)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (i)
			*p++ = ',';
		if (quote)
			*p++ = quote;
		p = rt_fmt_hex(p, rt_stack_frame(f, i));
		if (quote)
			*p++ = quote;
	}
	return p;
}
