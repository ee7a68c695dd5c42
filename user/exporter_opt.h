/* SPDX-License-Identifier: GPL-2.0-only */
/* ringtrace-exporter's command line (exporter_opt.c), apart from the work. */
#ifndef RINGTRACE_EXPORTER_OPT_H
#define RINGTRACE_EXPORTER_OPT_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/session.h"

#define EXPORTER_DEFAULT_LISTEN		"127.0.0.1:9478"
#define EXPORTER_DEFAULT_TEXTFILE_NS	(15ull * 1000 * 1000 * 1000)

struct exporter_opts {
	const char		*input;		/* -i FILE: replay it */
	const char		*listen;	/* NULL: no HTTP (--listen none) */
	const char		*textfile;	/* NULL: none */
	uint64_t		textfile_ns;	/* live: rewrite it this often */
	uint32_t		max_series;
	bool			quiet;
	struct rt_session_opts	session;	/* live */
};

/*
 * Parse argv into @o. Returns 0; -1 after printing a usage error on stderr
 * (exit 2); 1 after printing --help or --version on stdout (exit 0).
 */
int exporter_parse(int argc, char **argv, struct exporter_opts *o);

#endif /* RINGTRACE_EXPORTER_OPT_H */
