// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Choosing a printer by format, and what printers share (see output.h). */
#include <ctype.h>
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

static rt_func_name_fn func_name_fn;
static void *func_name_arg;

void rt_output_set_func_namer(rt_func_name_fn fn, void *arg)
{
	func_name_fn = fn;
	func_name_arg = arg;
}

/*
 * A func record's function: the name the session traced it by, or (on
 * replay) the symbol its address falls in: the namer's (ringtrace-cat:
 * the recording's symbols, bare, as the live run named it), else the
 * frame name without the offset: the probe sits at the function's entry,
 * so "+0x0", or the arch's entry padding (x86's ENDBR64: "+0x4"), would
 * only make one function two names. What follows the offset (a module's
 * name) stays.
 */
const char *rt_output_func_name_at(uint32_t idx, uint64_t ip)
{
	static char buf[RINGTRACE_FUNC_NAME_LEN + 64];
	const char *sym, *plus, *end;
	size_t len;

	if (idx < nr_func_names)
		return func_names[idx];
	sym = func_name_fn ? func_name_fn(func_name_arg, ip) : NULL;
	if (sym || !name_fn)
		return sym;
	/* Kernel frames are named alike in every task. */
	sym = name_fn(name_arg, true, 0, "", ip);
	plus = sym ? strstr(sym, "+0x") : NULL;
	if (!plus)
		return sym;
	for (end = plus + 3; isxdigit((unsigned char)*end); end++)
		;
	len = (size_t)(plus - sym);
	if (len + strlen(end) >= sizeof(buf))
		return sym;
	memcpy(buf, sym, len);
	strcpy(buf + len, end);
	return buf;
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
