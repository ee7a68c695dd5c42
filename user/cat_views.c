// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat's views and the files it creates (see cat_views.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cat_errors.h"
#include "cat_views.h"
#include "ringtrace/filter.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/sys.h"

bool cat_views_wanted(const struct options *o)
{
	return o->hist || o->summary || o->folded || o->flamegraph ||
	       o->perfetto || o->ctf || o->report ||
	       rt_filter_active(&o->filter) || (o->symbols && !o->raw);
}

/*
 * Live: from /proc/PID/maps. Replay: from the file's MAPS chunk and MMAP2
 * records (cat_views_use_file()), never from this machine's pids, which
 * are other processes. One table for the flame graph and the stream.
 */
static struct rt_usyms *usyms_of(struct cat_views *v)
{
	if (!v->usyms_on && v->o->symbols &&
	    !rt_usyms_init(&v->usyms, !v->o->input))
		v->usyms_on = true;
	return v->usyms_on ? &v->usyms : NULL;
}

/*
 * Issue 21: text and JSON name their frames, as perf script does. Kernel
 * symbols: live, /proc/kallsyms; on replay --kallsyms FILE, else those the
 * recording saved (the addresses are its machine's and boot's). Returns -1 when a
 * --kallsyms FILE is unusable.
 */
static int names_init(struct cat_views *v)
{
	const struct options *o = v->o;
	struct options quiet;
	bool failed = false;

	/* Live, only when records can hold kernel frames: 4 MB to parse. */
	if (o->input || o->session.stack_kernel_depth || o->perf.sample) {
		/* Said at the end, and only if kernel frames stayed hex. */
		quiet = *o;
		quiet.quiet = true;
		v->stream_ksyms_on = cat_views_load_ksyms(&v->stream_ksyms,
							  o->kallsyms ? o :
							  &quiet, &failed);
		if (failed)
			return -1;
	}
	if (rt_frame_names_init(&v->names, v->stream_ksyms_on ?
				&v->stream_ksyms : NULL, usyms_of(v)))
		return -1;
	v->names_on = true;
	rt_output_set_frame_names(rt_frame_name_cb, &v->names);
	return 0;
}

void cat_views_see_thread(struct cat_views *v, pid_t tid)
{
	char path[64], comm[RT_USYMS_COMM_LEN], status[1024];
	const char *t;
	long tgid;

	if (!v->names_on || !v->usyms_on || !v->usyms.live)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	if (rt_sys_read_file(path, comm, sizeof(comm)) <= 0)
		return;
	comm[strcspn(comm, "\n")] = '\0';
	/* Tgid is among status's first lines: 1 KiB of it holds it. */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (rt_sys_read_file(path, status, sizeof(status)) <= 0)
		return;
	t = strstr(status, "\nTgid:");
	tgid = t ? strtol(t + 6, NULL, 10) : -1;
	/* Records name the process by its tgid, the thread by its comm. */
	if (tgid > 0)
		rt_usyms_see(&v->usyms, (uint32_t)tgid, comm);
}

/* Why frames of the stream stayed hex, when some did. */
static void names_notes(const struct cat_views *v)
{
	const struct options *o = v->o;

	/*
	 * -q or not: a --kallsyms FILE that names most of the frames it is
	 * asked for as nothing is not the recording's (a file recorded
	 * before its machine and symbols were kept cannot be checked
	 * otherwise).
	 */
	if (v->names_on && o->kallsyms && !v->ksyms_warned &&
	    v->names.kernel_resolved &&
	    v->names.kernel_unnamed * 2 > v->names.kernel_resolved)
		fprintf(stderr, PROG ": warning: --kallsyms %s names no function "
			"for %llu of the %llu kernel addresses of the recording: "
			"it is not of the recording's boot, kernel or "
			"architecture\n", o->kallsyms,
			(unsigned long long)v->names.kernel_unnamed,
			(unsigned long long)v->names.kernel_resolved);
	if (!v->names_on || o->quiet)
		return;
	if (o->verbose)
		fprintf(stderr, PROG ": stream frame names: %llu frames, %llu "
			"looked up (%llu unnamed), %llu not kept (table full)\n",
			(unsigned long long)v->names.lookups,
			(unsigned long long)v->names.resolved,
			(unsigned long long)v->names.unnamed,
			(unsigned long long)v->names.full);
	if (!v->names.kernel_hex)
		return;
	if (o->input)
		fprintf(stderr, PROG ": kernel frames stay hex: give the "
			"recording machine's symbols with --kallsyms FILE\n");
	else
		fprintf(stderr, PROG ": kernel frames stay hex: /proc/kallsyms "
			"is unreadable or shows no addresses "
			"(kernel.kptr_restrict; run as root or lower it)\n");
}

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return path && strcmp(path, "-") && !stat(path, &b) &&
	       a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

int cat_create_file(const char *path, const char *input)
{
	char old[4096];
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return STDOUT_FILENO;
	if (!stat(path, &st)) {
		if (same_file(&st, input)) {
			cat_error("%s is the input: refusing to "
				  "overwrite it", path);
			return -1;
		}
		/* Keep a recording: FILE becomes FILE.old, as perf does. */
		if (S_ISREG(st.st_mode) && st.st_size > 0) {
			snprintf(old, sizeof(old), "%s.old", path);
			if (rename(path, old)) {
				cat_error("cannot keep %s as %s: %s",
					  path, old, strerror(errno));
				return -1;
			}
		}
	}
	fd = rt_sys.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		cat_error("cannot create %s: %s", path, strerror(errno));
	return fd;
}

int cat_views_init(struct cat_views *v, const struct options *o,
		   enum rt_format format, struct rt_outbuf *out,
		   struct rt_paths *paths)
{
	bool table_flame = o->flamegraph && o->flame_weight != FLAME_SAMPLES &&
			   o->flame_weight != FLAME_OFFCPU;

	memset(v, 0, sizeof(*v));
	v->o = o;
	v->out = out;
	v->paths = paths;
	if (rt_filter_active(&o->filter))
		v->filter = (struct rt_filter *)&o->filter;
	/* Views replace the per-record stream. */
	if (!o->hist && !o->summary && !o->folded && !o->flamegraph &&
	    !o->perfetto && !o->ctf && !o->report)
		v->print = rt_printer(format);
	v->format = format;
	if (v->print && o->symbols && names_init(v))
		return -1;
	if (o->hist || o->summary || table_flame) {
		v->lat.hist = o->hist;
		v->lat.by = o->hist_by;
		v->lat.summary = o->summary || table_flame;
		v->lat.top = o->verbose ? 0 : 25;	/* a screenful */
		v->lat.paths = paths;
		if (rt_latency_view_init(&v->lat))
			goto nomem;
		v->lat_on = true;
		if (o->input && (o->hist || o->summary))
			v->replay_interval_ns = o->perf.interval_ns;
	}
	/* Samples, or stack trailers weighted by latency or bytes. */
	if (o->folded || o->flamegraph || o->report) {
		if (rt_folded_init(&v->folded))
			goto nomem;
		v->folded_on = true;
		v->folded.usyms = usyms_of(v);
	}
	if (o->perfetto) {
		int fd = cat_create_file(o->perfetto, o->input);

		if (fd < 0)
			return -1;
		if (rt_outbuf_init(&v->perfetto_out, fd, RT_OUTBUF_DEFAULT_SIZE) ||
		    rt_perfetto_init(&v->perfetto, &v->perfetto_out))
			goto nomem;
		v->perfetto.paths = paths;
		v->perfetto_on = true;
	}
	if (o->ctf) {
		int err = rt_ctf_open(&v->ctf, o->ctf, RT_CTF_PACKET_DEFAULT, NULL);

		if (err) {
			cat_error("--ctf %s: %s", o->ctf,
				  err == -EEXIST ? "exists already (the trace "
				  "goes into a new directory)" : strerror(-err));
			return -1;
		}
		v->ctf.paths = paths;
		v->ctf_on = true;
	}
	return 0;
nomem:
	cat_error("out of memory");
	return -1;
}

static void add_raw_map(void *arg, const struct rt_raw_map *m,
			const char *path)
{
	rt_usyms_add_map(arg, m->pid, m->comm, m->start, m->end, m->pgoff,
			 path, m->build_id, m->build_id_len);
}

static void add_mmap(void *arg, const struct rt_event *ev)
{
	const struct rt_mmap_event *m = &ev->u.mmap;

	rt_usyms_add_map(arg, ev->pid, ev->comm, m->start, m->start + m->len,
			 m->pgoff, m->path, m->build_id, m->build_id_len);
}

/* A replay's trace names the recording machine and its clocks. */
static void ctf_env_of_file(struct rt_ctf_env *e, const struct rt_raw_file *f)
{
	const struct rt_raw_header *h = &f->hdr;

	snprintf(e->hostname, sizeof(e->hostname), "%.*s",
		 (int)sizeof(h->host), h->host);
	snprintf(e->kernel, sizeof(e->kernel), "%.*s",
		 (int)sizeof(h->kernel), h->kernel);
	snprintf(e->module_version, sizeof(e->module_version), "%.*s",
		 (int)sizeof(h->module_version), h->module_version);
	e->wall_offset_ns = (int64_t)(h->start_real_ns - h->start_mono_ns);
}

/* Whether @k has a symbol named @name at @addr (aliases share one). */
static bool has_sym_at(const struct rt_ksyms *k, const char *name,
		       uint64_t addr)
{
	const struct rt_ksym *s = rt_ksyms_lookup(k, addr);

	if (!s || s->addr != addr)
		return false;
	/* The lookup gives the last of the aliases: the others precede it. */
	for (size_t i = (size_t)(s - k->syms) + 1; i-- > 0 &&
	     k->syms[i].addr == addr;)
		if (!strcmp(k->syms[i].name, name))
			return true;
	return false;
}

/*
 * A --kallsyms FILE names a replay's kernel frames only if it is the
 * recording boot's: another architecture's, another boot's (KASLR moves
 * every address) or another build's names every frame after a wrong
 * symbol, or none. What the recording knows of its own: its machine
 * (header) and the symbols its frames fall in, _text among them (KSYMS
 * chunk). Said once, -q or not: every name printed depends on it.
 */
static void check_kallsyms_file(struct cat_views *v, const struct rt_ksyms *k)
{
	const char *path = v->o->kallsyms, *arch = rt_ksyms_arch(k);
	const struct rt_raw_file *f = v->file;
	const char *machine;
	struct rt_ksyms rec;
	uint64_t here, there;
	uint32_t moved = 0;
	char err[256];

	if (!path || !f || v->ksyms_checked)
		return;
	v->ksyms_checked = true;
	machine = f->hdr.machine;
	if (arch && machine[0] && strcmp(arch, machine)) {
		fprintf(stderr, PROG ": warning: --kallsyms %s is an %s kernel's, "
			"the recording is of %s: its frames cannot be named from "
			"it\n", path, arch, machine);
		v->ksyms_warned = true;
		return;
	}
	if (rt_raw_read_ksyms(f, &rec, err, sizeof(err)) <= 0) {
		rt_ksyms_free(&rec);
		return;
	}
	here = rt_ksyms_addr_of(k, "_text");
	there = rt_ksyms_addr_of(&rec, "_text");
	for (uint32_t i = 0; i < rec.nr; i++)
		moved += !has_sym_at(k, rec.syms[i].name, rec.syms[i].addr);
	v->ksyms_warned = (here && there && here != there) || moved;
	if (here && there && here != there)
		fprintf(stderr, PROG ": warning: --kallsyms %s is not of the "
			"recording's boot: _text is at %#llx in it, at %#llx in "
			"the recording (another boot's KASLR offset, or another "
			"kernel): the frames it names are named wrong\n", path,
			(unsigned long long)here, (unsigned long long)there);
	else if (moved)
		fprintf(stderr, PROG ": warning: --kallsyms %s does not match "
			"the recording: %u of the %u symbols its frames fall in "
			"are not where it puts them (another boot or kernel "
			"build): the frames it names may be named wrong\n", path,
			moved, rec.nr);
	rt_ksyms_free(&rec);
}

void cat_views_use_file(struct cat_views *v, struct rt_raw_file *f)
{
	uint32_t bad;

	v->file = f;
	if (v->ctf_on)
		ctf_env_of_file(&v->ctf.env, f);
	if (v->stream_ksyms_on)
		check_kallsyms_file(v, &v->stream_ksyms);

	if (!v->usyms_on)
		return;
	v->file_maps = f->nr_maps;
	bad = rt_raw_foreach_map(f, add_raw_map, &v->usyms);
	if (bad && !v->o->quiet)
		fprintf(stderr, PROG ": %s: %u malformed process mapping "
			"entries skipped\n", v->o->input, bad);
	/* Written with MMAP2 tracking (cat.c) whenever perf rings are. */
	v->usyms.exec_tracked = f->has_perf_format;
	f->on_mmap = add_mmap;
	f->on_mmap_arg = &v->usyms;
}

/* What became of user frames, when something kept them hex. */
static void usyms_notes(const struct cat_views *v)
{
	const struct rt_usyms *u = v->usyms_on ? &v->usyms : NULL;

	if (!u || v->o->quiet)
		return;
	if (v->o->input && !v->file_maps && !u->nr && u->unmapped)
		fprintf(stderr, PROG ": user frames stay hex: %s holds no "
			"process mappings (recorded without stacks, with "
			"--no-symbols, or by an older ringtrace-cat)\n",
			v->o->input);
	if (u->missing)
		fprintf(stderr, PROG ": %llu binaries not found (or not ELF) "
			"on this machine: their frames stay hex\n",
			(unsigned long long)u->missing);
	if (u->mismatched)
		fprintf(stderr, PROG ": %llu binaries differ from the recorded "
			"ones (build-id): their frames stay hex\n",
			(unsigned long long)u->mismatched);
	if (v->o->verbose)
		fprintf(stderr, PROG ": user symbols: %u process images, "
			"%u binaries, %llu loaded\n", u->nr, u->nr_bins,
			(unsigned long long)u->module_loads);
}

/*
 * A replay's --interval: a block each time the records' clock passes a
 * boundary, the first at the first record + MS, as a live run prints one
 * each MS of its own clock. A stretch with no record at all is one block.
 */
static void replay_interval(struct cat_views *v, uint64_t ts)
{
	uint64_t iv = v->replay_interval_ns;

	if (!v->next_interval_ns) {
		v->interval_end_ns = ts;
		v->next_interval_ns = ts + iv;
		return;
	}
	if (ts < v->next_interval_ns)
		return;
	cat_views_interval(v, v->next_interval_ns);
	v->next_interval_ns += iv;
	if (ts >= v->next_interval_ns) {
		v->next_interval_ns += (ts - v->next_interval_ns) / iv * iv;
		cat_views_interval(v, v->next_interval_ns);
		v->next_interval_ns += iv;
	}
}

void cat_views_sink(void *arg, const struct rt_event *ev)
{
	struct cat_views *v = arg;

	if (v->replay_interval_ns && ev->ts_ns)
		replay_interval(v, ev->ts_ns);
	if (v->filter && !rt_filter_pass(v->filter, ev)) {
		v->filtered++;
		return;
	}
	rt_missing_add(&v->missing, ev);
	rt_missing_add(&v->missing_block, ev);
	if (v->print)
		v->print(v->out, ev);
	if (v->lat_on)
		rt_latency_view_add(&v->lat, ev);
	if (v->folded_on && v->o->flame_weight == FLAME_SAMPLES)
		rt_folded_add(&v->folded, ev);
	else if (v->folded_on && v->o->flame_weight == FLAME_OFFCPU) {
		/* issue 22: where tasks blocked, weighted by how long. */
		if (ev->kind == RT_EVENT_OFFCPU)
			rt_folded_add_stack(&v->folded, ev,
					    ev->u.offcpu.offcpu_ns);
	} else if (v->folded_on && ev->kind == RT_EVENT_VFS_READ)
		rt_folded_add_stack(&v->folded, ev,
				    v->o->flame_weight == FLAME_BYTES ?
				    (ev->u.vfs_read.ret > 0 ?
				     (uint64_t)ev->u.vfs_read.ret : 0) :
				    ev->u.vfs_read.lat_ns);
	if (v->perfetto_on)
		rt_perfetto_add(&v->perfetto, ev);
	if (v->ctf_on)
		rt_ctf_add(&v->ctf, ev);
}

static void add_folded_line(void *arg, const char *line, size_t len)
{
	rt_flame_add_folded(arg, line, len);
}

static const char *const flame_units[] = {
	[FLAME_SAMPLES] = "samples",
	[FLAME_LATENCY] = "ns in vfs_read",
	[FLAME_BYTES] = "bytes read",
	[FLAME_OFFCPU] = "ns off CPU",
};

const char *cat_flame_unit(enum flame_weight w)
{
	return flame_units[w];
}

/* @s into @l from @at, ';' (the frame separator) as '_'. */
static size_t put_frame_name(char *l, size_t at, size_t len, const char *s)
{
	for (; *s && at + 1 < len; s++)
		l[at++] = *s == ';' ? '_' : *s;
	l[at] = '\0';
	return at;
}

/* "comm;file WEIGHT" lines, from the pid x file table. */
static void lines_from_table(struct cat_views *v,
			     void (*fn)(void *arg, const char *line, size_t len),
			     void *arg)
{
	const struct rt_view_table *t = &v->lat.rows;
	char name[96], line[RINGTRACE_COMM_LEN + 4200];

	for (uint32_t k = 0; k <= t->nr; k++) {
		/* Every row, then [other] (entries[max]) if it was used. */
		uint32_t i = k < t->nr ? k : t->max;
		const struct rt_view_entry *e = &t->entries[i];
		const char *path;
		uint64_t w;
		size_t n;

		if (k == t->nr && !t->overflow)
			break;
		w = v->o->flame_weight == FLAME_BYTES ? e->bytes : e->read.sum;
		path = rt_paths_get(v->paths, e->key.dev_major,
				    e->key.dev_minor, e->key.ino);
		if (!path) {
			snprintf(name, sizeof(name), "%u:%u ino %llu",
				 e->key.dev_major, e->key.dev_minor,
				 (unsigned long long)e->key.ino);
			path = name;
		}
		n = put_frame_name(line, 0, sizeof(line), i == t->max ?
				   "[other]" : e->comm[0] ? e->comm : "-");
		line[n++] = ';';	/* a comm is far shorter than line */
		n = put_frame_name(line, n, sizeof(line),
				   i == t->max ? "[other]" : path);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %llu\n",
				      (unsigned long long)w);
		fn(arg, line, n < sizeof(line) ? n : sizeof(line) - 1);
	}
}

/* Off-CPU time without stacks stays on the threads' names (issue 22). */
bool cat_views_flame_has_stacks(const struct cat_views *v)
{
	return v->o->flame_weight == FLAME_SAMPLES ||
	       v->o->flame_weight == FLAME_OFFCPU || v->folded.stacks_seen;
}

void cat_views_flame_lines(struct cat_views *v, const struct rt_ksyms *ksyms,
			   void (*fn)(void *arg, const char *line, size_t len),
			   void *arg)
{
	/* Stacks when records had them; else who read which file. */
	if (cat_views_flame_has_stacks(v))
		rt_folded_foreach(&v->folded, ksyms, fn, arg);
	else
		lines_from_table(v, fn, arg);
}

void cat_views_stream_ended(struct cat_views *v,
			    const struct rt_source_counts *counts,
			    uint64_t lost_pending, const struct rt_raw_file *f)
{
	struct rt_missing *m[] = { &v->missing, &v->missing_block };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		m[i]->lost_pending = lost_pending;
		m[i]->malformed = counts->malformed;
		m[i]->unknown = counts->unknown;
		if (f) {
			m[i]->damaged_bytes = f->damaged_bytes;
			m[i]->truncated = f->truncated;
		}
	}
}

/* "missing: 19497 records lost (97.5%), ...", or "" when nothing is. */
static void missing_line(const struct rt_missing *m, char *buf, size_t len)
{
	int n;

	buf[0] = '\0';
	if (!rt_missing_any(m))
		return;
	n = snprintf(buf, len, "missing: ");
	if (n > 0 && (size_t)n < len)
		rt_missing_line(m, buf + n, len - (size_t)n);
}

static int write_flamegraph(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	const char *unit = cat_flame_unit(o->flame_weight);
	struct rt_missing m = v->missing;
	struct rt_outbuf ob;
	struct rt_flame fl;
	char title[128], missing[512];
	int fd, ret = 0;

	if (rt_flame_init(&fl))
		return -1;
	/* What the graph lacks is in it, under the title. */
	if (cat_views_flame_has_stacks(v))
		m.stacks_dropped = v->folded.dropped;
	else
		m.other = v->lat.rows.overflow;
	missing_line(&m, missing, sizeof(missing));
	if (missing[0])
		fl.subtitle = missing;
	/* issue 22: flamegraph.pl --color=io's palette for time off CPU. */
	fl.io_palette = o->flame_weight == FLAME_OFFCPU;
	cat_views_flame_lines(v, ksyms, add_folded_line, &fl);
	fd = cat_create_file(o->flamegraph, o->input);
	if (fd < 0 || rt_outbuf_init(&ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		rt_flame_fini(&fl);
		return -1;
	}
	snprintf(title, sizeof(title), "ringtrace flame graph (%s)", unit);
	rt_flame_write_svg(&fl, &ob, title, unit);
	if (rt_outbuf_flush(&ob)) {
		cat_error("writing %s: %s", o->flamegraph, strerror(ob.error));
		ret = -1;
	} else if (!o->quiet) {
		fprintf(stderr, PROG ": flame graph of %llu %s in %s (%u frames)\n",
			(unsigned long long)(fl.nodes ? fl.nodes[0].value : 0),
			unit, o->flamegraph, fl.nr - 1);
		if (fl.capped)
			fprintf(stderr, PROG ": %llu call paths deeper than %u "
				"frames end in one \"%s\" frame\n",
				(unsigned long long)fl.capped,
				RT_FLAME_MAX_DEPTH, RT_FLAME_DEEPER);
		if (missing[0])
			fprintf(stderr, PROG ": flame graph %s\n", missing);
	}
	if (fd != STDOUT_FILENO)
		rt_sys.close(fd);
	rt_outbuf_fini(&ob);
	rt_flame_fini(&fl);
	return ret;
}

/*
 * issue 21: the symbols the recording saved (KSYMS chunk); what a damaged
 * chunk still holds is used, and where it stopped is said.
 */
static bool load_file_ksyms(struct rt_ksyms *k, const struct options *o)
{
	static bool said;
	struct rt_raw_file f;
	char err[256];
	int n;

	/* Standard input was read once, by the replay. */
	if (!strcmp(o->input, "-") || rt_raw_open(&f, o->input)) {
		if (strcmp(o->input, "-"))
			rt_raw_close(&f);
		return false;
	}
	n = rt_raw_read_ksyms(&f, k, err, sizeof(err));
	/* Damage is said as the reader's is, -q or not; once per run. */
	if (err[0] && !said)
		fprintf(stderr, PROG ": corrupt raw file %s: %s\n", f.path, err);
	said = said || err[0];
	rt_raw_close(&f);
	if (n > 0)
		return true;
	rt_ksyms_free(k);
	return false;
}

/*
 * Kernel frames from /proc/kallsyms, or the --kallsyms FILE given. What
 * went wrong names the file and the cause (issue 21: a file that is no
 * kallsyms copy was blamed on /proc/kallsyms and kptr_restrict). Returns
 * whether @k was loaded; *@failed when a --kallsyms FILE was unusable.
 */
bool cat_views_load_ksyms(struct rt_ksyms *k, const struct options *o,
			  bool *failed)
{
	bool quiet = o->quiet;
	const char *path = o->kallsyms;
	int ret;

	*failed = false;
	/* A recording's addresses are its machine's and boot's, not ours. */
	if (!path && o->input) {
		if (load_file_ksyms(k, o))
			return true;
		if (!quiet)
			fprintf(stderr, PROG ": kernel frames stay hex: give the "
				"recording machine's symbols with --kallsyms FILE\n");
		return false;
	}
	ret = rt_ksyms_load(k, path ? path : "/proc/kallsyms");
	if (ret) {
		*failed = path != NULL;
		if (path || !quiet)
			fprintf(stderr, PROG ": %scannot read %s: %s\n",
				path ? "--kallsyms: " : "kernel frames stay hex: ",
				path ? path : "/proc/kallsyms", strerror(-ret));
		return false;
	}
	if (k->nr)
		return true;
	if (path && !k->nr_hidden) {
		*failed = true;
		cat_error("--kallsyms: %s holds no kernel symbols "
			  "(lines 'ADDRESS TYPE NAME', a copy of /proc/kallsyms)",
			  path);
	} else if (path) {
		*failed = true;
		cat_error("--kallsyms: %s shows no addresses: it "
			  "was copied without the right to see them "
			  "(kernel.kptr_restrict; copy it as root)", path);
	} else if (!quiet) {
		fprintf(stderr, PROG ": kernel frames stay hex: /proc/kallsyms "
			"shows no addresses (kernel.kptr_restrict; run as root "
			"or lower it)\n");
	}
	rt_ksyms_free(k);
	return false;
}

/*
 * Issue 21: --report, the flame graph's stacks as perf report's table,
 * frames named without offsets so that one symbol is one row.
 */
static int write_report(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	struct rt_missing m = v->missing;
	struct rt_frame_names names;
	struct rt_report r;
	int ret;

	if (rt_frame_names_init(&names, ksyms, v->usyms_on ? &v->usyms : NULL))
		goto nomem;
	names.bare = true;
	m.stacks_dropped = v->folded.dropped;
	ret = rt_report_build(&r, &v->folded, &names, o->report_by);
	r.missing = &m;
	if (ret) {
		rt_frame_names_fini(&names);
		goto nomem;
	}
	if (v->format == RT_FORMAT_JSON)
		rt_report_print_json(&r, cat_flame_unit(o->flame_weight),
				     o->verbose ? 0 : 50, v->out);
	else
		rt_report_print(&r, cat_flame_unit(o->flame_weight),
				o->verbose ? 0 : 50, v->out);

	if (v->folded.dropped && !o->quiet)
		fprintf(stderr, PROG ": --report: %llu samples dropped: the "
			"stack table is full\n",
			(unsigned long long)v->folded.dropped);
	rt_report_fini(&r);
	rt_frame_names_fini(&names);
	return 0;
nomem:
	cat_error("--report: out of memory");
	return -1;
}

/*
 * --interval's blocks say which interval they cover, the one printed at
 * the end included (issue 21: every block but the last was headed "the
 * last interval"). @now_ns: its end; 0 for the block at the end of the run.
 * JSON says it in the block's first members (@members), text in a line.
 */
static void interval_heading(struct cat_views *v, uint64_t now_ns,
			     char *members, size_t len)
{
	uint64_t from = v->interval_end_ns;
	int used;

	v->intervals++;
	v->interval_end_ns = now_ns;
	if (v->format == RT_FORMAT_JSON) {
		used = snprintf(members, len, "\"interval\":%u", v->intervals);
		if (from && used > 0 && (size_t)used < len)
			used += snprintf(members + used, len - (size_t)used,
					 ",\"from_ns\":%llu",
					 (unsigned long long)from);
		if (now_ns && used > 0 && (size_t)used < len)
			snprintf(members + used, len - (size_t)used,
				 ",\"to_ns\":%llu", (unsigned long long)now_ns);
		return;
	}
	rt_outbuf_printf(v->out, "\n=== interval %u: ", v->intervals);
	if (from)
		rt_outbuf_printf(v->out, "from %llu.%09llu ",
				 (unsigned long long)(from / 1000000000u),
				 (unsigned long long)(from % 1000000000u));
	if (now_ns)
		rt_outbuf_printf(v->out, "%s %llu.%09llu (CLOCK_MONOTONIC) ===\n",
				 from ? "to" : "until",
				 (unsigned long long)(now_ns / 1000000000u),
				 (unsigned long long)(now_ns % 1000000000u));
	else
		rt_outbuf_printf(v->out, "to the end of the run%s ===\n",
				 from ? " (CLOCK_MONOTONIC)" : "");
}

/*
 * --hist and --summary, in the run's format (paired printers), with what
 * their block is missing: under the text, as "missing":{...} in the JSON
 * object (always there: zeros when nothing is).
 */
static void print_latency(struct cat_views *v, const char *members)
{
	const struct options *o = v->o;
	uint64_t keyed = o->hist && o->hist_by ? v->lat.keyed.overflow : 0;
	uint64_t rows = o->summary ? v->lat.rows.overflow : 0;
	char all[RT_MISSING_JSON_MAX + 160], *p;

	v->missing_block.other = keyed > rows ? keyed : rows;
	if (v->format != RT_FORMAT_JSON) {
		rt_latency_view_print(&v->lat, v->out);
		rt_missing_print(&v->missing_block, v->out, "");
		return;
	}
	p = all + snprintf(all, 160, "%.120s%s\"missing\":", members,
			   *members ? "," : "");
	*rt_missing_json(p, &v->missing_block) = '\0';
	rt_latency_view_print_json(&v->lat, v->out, all);
}

void cat_views_interval(void *arg, uint64_t now_ns)
{
	struct cat_views *v = arg;
	const struct options *o = v->o;
	bool summary = v->lat.summary;
	char members[128] = "";

	if (!v->lat_on || (!o->hist && !o->summary))
		return;
	interval_heading(v, now_ns, members, sizeof(members));
	v->lat.summary = o->summary;
	print_latency(v, members);
	memset(&v->missing_block, 0, sizeof(v->missing_block));
	v->lat.summary = summary;
	/* A flame graph from the table covers the whole run: keep it then. */
	if (!(o->flamegraph && o->flame_weight != FLAME_SAMPLES &&
	      o->flame_weight != FLAME_OFFCPU))
		rt_latency_view_reset(&v->lat);
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* /proc/PID/fd of each process in the table, once per process. */
static void scan_open_files(struct cat_views *v)
{
	const struct rt_view_table *t = &v->lat.rows;
	uint32_t *pids = malloc((t->nr + 1) * sizeof(*pids));

	if (!pids)
		return;
	for (uint32_t i = 0; i < t->nr; i++)
		pids[i] = t->entries[i].key.pid;
	qsort(pids, t->nr, sizeof(*pids), by_u32);
	for (uint32_t i = 0; i < t->nr; i++)
		if (!i || pids[i] != pids[i - 1])
			rt_paths_scan_pid(v->paths, (int)pids[i]);
	free(pids);
}

/* "12.345678901": a timestamp as the text output prints it. */
static void print_ts(uint64_t ns)
{
	fprintf(stderr, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
		(unsigned long long)(ns % 1000000000u));
}

/*
 * Issue 21: --time that matched nothing said nothing. Say what the range
 * was and what the events span, in the timestamps the output prints.
 */
static void time_matched_nothing(const struct rt_filter *f)
{
	uint64_t to = rt_filter_time_to(f);

	fprintf(stderr, PROG ": --time matched nothing: the range is ");
	print_ts(rt_filter_time_from(f));
	fprintf(stderr, " to ");
	if (to)
		print_ts(to);
	else
		fprintf(stderr, "the end");
	if (f->first_ns) {
		fprintf(stderr, ", the events span ");
		print_ts(f->first_ns);
		fprintf(stderr, " to ");
		print_ts(f->last_ns);
	} else {
		fprintf(stderr, ", and there were no events");
	}
	fprintf(stderr, " (bare numbers are timestamps as printed; with a "
		"unit, 1s,2s, times after the first event)\n");
}

int cat_views_finish(struct cat_views *v)
{
	const struct options *o = v->o;
	struct rt_ksyms ksyms;
	char members[128];
	bool named = false;
	int ret = 0;

	/* Best effort: names of files still open in the processes seen. */
	if (v->lat_on && !o->input)
		scan_open_files(v);
	if (v->folded_on) {
		bool failed;

		named = cat_views_load_ksyms(&ksyms, o, &failed);
		if (failed)
			ret = -1;
		if (named)
			check_kallsyms_file(v, &ksyms);
	}
	/* The table may exist only for the flame graph: print what was asked. */
	v->lat.summary = o->summary;
	members[0] = '\0';
	if ((o->hist || o->summary) && v->intervals)
		interval_heading(v, 0, members, sizeof(members));
	if (o->hist || o->summary)
		print_latency(v, members);
	if (o->folded) {
		uint32_t lines = rt_folded_write(&v->folded,
						 named ? &ksyms : NULL, v->out);
		struct rt_missing m = v->missing;
		char missing[512];

		/* The lines printed: stacks that name alike are one line. */
		if (!o->quiet)
			fprintf(stderr, PROG ": %u folded stacks from %llu "
				"samples%s\n", lines,
				(unsigned long long)v->folded.samples,
				v->folded.dropped ? ", some dropped: the stack "
				"table is full" : "");
		/*
		 * Every folded line is data: what they lack is said here,
		 * -q or not (nothing else would say it).
		 */
		m.stacks_dropped = v->folded.dropped;
		missing_line(&m, missing, sizeof(missing));
		if (missing[0])
			fprintf(stderr, PROG ": folded stacks %s\n", missing);
	}
	if (o->flamegraph && write_flamegraph(v, named ? &ksyms : NULL))
		ret = -1;
	if (o->report && write_report(v, named ? &ksyms : NULL))
		ret = -1;
	if (o->folded || o->flamegraph || o->report || v->names_on)
		usyms_notes(v);
	names_notes(v);
	if (v->perfetto_on) {
		if (rt_missing_any(&v->missing)) {
			char line[512], json[RT_MISSING_JSON_MAX];

			missing_line(&v->missing, line, sizeof(line));
			*rt_missing_json(json, &v->missing) = '\0';
			rt_perfetto_note(&v->perfetto, line, json);
		}
		rt_perfetto_finish(&v->perfetto);
		v->perfetto_on = false;
		if (rt_outbuf_flush(&v->perfetto_out)) {
			cat_error("writing %s: %s", o->perfetto,
				  strerror(v->perfetto_out.error));
			ret = -1;
		} else if (!o->quiet) {
			fprintf(stderr, PROG ": %llu trace events in %s\n",
				(unsigned long long)v->perfetto.events,
				o->perfetto);
		}
	}
	if (v->ctf_on) {
		int err;

		v->ctf_on = false;
		err = rt_ctf_close(&v->ctf);
		if (err) {
			cat_error("--ctf %s: %s: no trace written",
				  o->ctf, strerror(-err));
			ret = -1;
		} else if (!o->quiet) {
			fprintf(stderr, PROG ": CTF trace of %llu events (%llu "
				"discarded) in %s, %llu packets\n",
				(unsigned long long)v->ctf.events,
				(unsigned long long)v->ctf.discarded, o->ctf,
				(unsigned long long)v->ctf.packets);
		}
		if (v->ctf.reordered && !o->quiet)
			fprintf(stderr, PROG ": --ctf: %llu events came before "
				"their stream's previous one: their time was "
				"raised to it\n",
				(unsigned long long)v->ctf.reordered);
	}
	if (!o->quiet && v->filtered) {
		uint64_t by_expr = v->filter ? v->filter->expr_dropped : 0;

		/* issue 21: which part --filter turned away, when not all. */
		if (by_expr && by_expr < v->filtered)
			fprintf(stderr, PROG ": %llu events filtered out, %llu "
				"of them by --filter\n",
				(unsigned long long)v->filtered,
				(unsigned long long)by_expr);
		else
			fprintf(stderr, PROG ": %llu events filtered out%s\n",
				(unsigned long long)v->filtered,
				by_expr ? " by --filter" : "");
	}
	if (v->filter && v->filter->relative && !v->filter->time_matched)
		time_matched_nothing(v->filter);
	if (named)
		rt_ksyms_free(&ksyms);
	rt_outbuf_flush(v->out);
	return ret;
}

void cat_views_fini(struct cat_views *v)
{
	if (v->perfetto_on)
		rt_perfetto_finish(&v->perfetto);
	if (v->perfetto_out.buf) {
		if (v->perfetto_out.fd >= 0 && v->perfetto_out.fd != STDOUT_FILENO)
			rt_sys.close(v->perfetto_out.fd);
		rt_outbuf_fini(&v->perfetto_out);
	}
	if (v->ctf_on)
		rt_ctf_abort(&v->ctf);
	if (v->lat_on)
		rt_latency_view_fini(&v->lat);
	if (v->folded_on)
		rt_folded_fini(&v->folded);
	if (v->names_on) {
		rt_output_set_frame_names(NULL, NULL);
		rt_frame_names_fini(&v->names);
		v->names_on = false;
	}
	if (v->stream_ksyms_on)
		rt_ksyms_free(&v->stream_ksyms);
	v->stream_ksyms_on = false;
	if (v->usyms_on)
		rt_usyms_fini(&v->usyms);
	v->usyms_on = false;
}
