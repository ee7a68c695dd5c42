// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Durations and sizes from the command line (see parse.h). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <linux/ringtrace.h>

#include "ringtrace/parse.h"

/* "123.456" -> integer part and up to 9 fraction digits scaled to 1e9. */
struct decimal {
	uint64_t	whole;
	uint64_t	frac_e9;	/* fraction * 1e9, truncated */
	bool		has_frac;
	const char	*rest;		/* first byte after the number */
};

static int parse_decimal(const char *s, struct decimal *d)
{
	const char *p = s;
	uint64_t scale = 100000000;	/* weight of the first fraction digit */

	d->whole = 0;
	d->frac_e9 = 0;
	d->has_frac = false;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (d->whole > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		d->whole = d->whole * 10 + digit;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		d->has_frac = true;
		for (; isdigit((unsigned char)*p); p++) {
			d->frac_e9 += (uint64_t)(*p - '0') * scale;
			scale /= 10;
		}
	}
	d->rest = p;
	return 0;
}

/* value * unit_ns, where the fraction is in units of 1e-9 of @unit_ns. */
static int scale_decimal(const struct decimal *d, uint64_t unit, uint64_t *out)
{
	uint64_t frac;

	/* Units above a second: the fraction in nanoseconds first. */
	if (unit > 1000000000ull) {
		uint64_t whole;

		if (d->whole && unit > UINT64_MAX / d->whole)
			return -ERANGE;
		whole = d->whole * unit;
		frac = d->frac_e9 * (unit / 1000000000ull);
		if (whole > UINT64_MAX - frac)
			return -ERANGE;
		*out = whole + frac;
		return 0;
	}

	if (d->whole && unit > UINT64_MAX / d->whole)
		return -ERANGE;
	/* frac_e9 < 1e9 and unit <= 1e9, so this product fits in 64 bits. */
	frac = d->frac_e9 * unit / 1000000000ull;
	if (d->whole * unit > UINT64_MAX - frac)
		return -ERANGE;
	*out = d->whole * unit + frac;
	return 0;
}

static int duration(const char *s, uint64_t *ns, const char *bare_unit,
		    char *err, size_t errlen)
{
	static const struct {
		const char	*name;
		uint64_t	ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 },
		{ "ms", 1000000 }, { "s", 1000000000 },
		{ "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	struct decimal d;
	const char *unit = NULL;
	uint64_t unit_ns = 0;
	int ret = parse_decimal(s, &d);

	if (ret == -ERANGE)
		goto range;
	if (ret)
		goto bad;
	if (!*d.rest) {
		if (bare_unit) {
			unit = bare_unit;
		} else if (d.whole == 0 && !d.frac_e9) {
			*ns = 0;
			return 0;
		} else {
			snprintf(err, errlen,
				 "duration '%s' needs a unit: ns, us, ms or s (e.g. %s%s)",
				 s, s, "ms");
			return -EINVAL;
		}
	} else {
		unit = d.rest;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			unit_ns = units[i].ns;
	if (!unit_ns) {
		snprintf(err, errlen, "invalid duration '%s': '%s' is not a unit "
			 "(ns, us, ms, s, min, h or d: 250us, 1.5ms, 2s, 10min)", s,
			 unit);
		return -EINVAL;
	}
	ret = scale_decimal(&d, unit_ns, ns);
	if (ret)
		goto range;
	return 0;
bad:
	snprintf(err, errlen,
		 "invalid duration '%s' (expected a number and a unit: 100ns, 250us, 1.5ms, 2s)",
		 s);
	return -EINVAL;
range:
	snprintf(err, errlen, "duration '%s' is too large", s);
	return -ERANGE;
}

int rt_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	return duration(s, ns, NULL, err, errlen);
}

int rt_parse_seconds(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	return duration(s, ns, "s", err, errlen);
}

int rt_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	static const char suffixes[] = "KMGT";
	struct decimal d;
	uint64_t mult = 1;
	const char *p;
	int ret = parse_decimal(s, &d);

	if (ret == -ERANGE)
		goto range;
	if (ret || d.has_frac)
		goto bad;
	p = d.rest;
	if (*p) {
		const char *hit = strchr(suffixes, toupper((unsigned char)*p));

		if (!hit)
			goto bad;
		mult = 1ull << (10 * (hit - suffixes + 1));
		p++;
		if (!strcasecmp(p, "ib") || !strcasecmp(p, "b"))
			p += strlen(p);
		if (*p)
			goto bad;
	}
	if (d.whole > UINT64_MAX / mult)
		goto range;
	*bytes = d.whole * mult;
	return 0;
bad:
	snprintf(err, errlen,
		 "invalid size '%s' (expected bytes or a number with K, M or G, e.g. 64K, 4M)",
		 s);
	return -EINVAL;
range:
	snprintf(err, errlen, "size '%s' is too large", s);
	return -ERANGE;
}

const char *rt_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (u < 5 && bytes && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
	return buf;
}

uint64_t rt_parse_event_name(const char *name, size_t len)
{
	static const struct {
		const char	*name;
		uint64_t	bit;
	} names[] = {
		{ "vfs_read",		RINGTRACE_EVENT_VFS_READ },
		{ "lock",		RINGTRACE_EVENT_LOCK },
		{ "lock_contention",	RINGTRACE_EVENT_LOCK_CONTENTION },
		{ "lock-contention",	RINGTRACE_EVENT_LOCK_CONTENTION },
		{ "offcpu",		RINGTRACE_EVENT_OFFCPU },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len &&
		    !strncmp(name, names[i].name, len))
			return names[i].bit;
	return 0;
}
