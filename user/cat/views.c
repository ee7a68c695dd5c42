// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat's views and the files it creates (see views.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "errors.h"
#include "flame.h"
#include "views.h"
#include "ringtrace/filter.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"
#include "ringtrace/sys.h"

bool cat_views_wanted(const struct options *o)
{
	return o->hist || o->summary || o->folded || o->flamegraph ||
	       o->perfetto || o->ctf || o->report || (o->graph && !o->raw) ||
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
 * Text and JSON name their frames, as perf script does. Kernel
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

/*
 * The stream's kernel symbols, loaded now without a word if names_init()
 * did not load them (what stays hex is said at the end); false: none.
 */
static bool stream_ksyms(struct cat_views *v)
{
	struct options quiet;
	bool failed;

	if (!v->stream_ksyms_on) {
		quiet = *v->o;
		quiet.quiet = true;
		v->stream_ksyms_on = cat_views_load_ksyms(&v->stream_ksyms,
							  &quiet, &failed);
	}
	return v->stream_ksyms_on;
}

/*
 * Live, func records are named from the session's list (trace.c). A
 * replay names them after the recording's symbols (its KSYMS chunk, which
 * holds the functions it traced), as the live run did, so that every view
 * keys and labels them alike; without symbols they stay hex. A --kallsyms
 * FILE is used where the stream loaded it (names_init()).
 */
static void func_names_init(struct cat_views *v)
{
	const struct options *o = v->o;

	if (!o->input || !o->symbols || (!v->stream_ksyms_on && o->kallsyms))
		return;
	if (stream_ksyms(v))
		rt_output_set_func_namer(rt_ksyms_func_name, &v->stream_ksyms);
}

/*
 * --graph with --folded, --flamegraph or --report: each read's tree goes
 * into the weighted views' table, rooted at vfs_read's own frame (its
 * address from the kernel's symbols, or the recording's; without them
 * the frame stays hex), instead of being printed.
 */
static void graph_fold_init(struct cat_views *v)
{
	v->graph.fold = &v->folded;
	if (stream_ksyms(v))
		v->graph.read_ip = rt_ksyms_addr_of(&v->stream_ksyms,
						    "vfs_read");
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
	memset(v, 0, sizeof(*v));
	v->o = o;
	v->out = out;
	v->paths = paths;
	if (rt_filter_active(&o->filter))
		v->filter = (struct rt_filter *)&o->filter;
	/* Views replace the per-record stream. */
	if (!o->hist && !o->summary && !o->folded && !o->flamegraph &&
	    !o->perfetto && !o->ctf && !o->report && !o->graph)
		v->print = rt_printer(format);
	v->format = format;
	/*
	 * --graph prints reads (their frames) and names functions; with
	 * --raw it only chose what is recorded.
	 */
	if ((v->print || (o->graph && !o->raw)) && o->symbols &&
	    names_init(v))
		return -1;
	func_names_init(v);
	if (o->graph && !o->raw) {
		v->graph.out = out;
		v->graph.format = format;
		v->graph.max_depth = o->graph_depth;
		v->graph.no_offcpu = o->graph_no_offcpu;
		if (rt_graph_init(&v->graph))
			goto nomem;
		v->graph_on = true;
		/* Where off-CPU intervals blocked: their kernel frames. */
		if (o->symbols && (o->input || o->session.stack_kernel_depth) &&
		    stream_ksyms(v)) {
			v->graph.ksyms = &v->stream_ksyms;
			v->graph.read_ip = rt_ksyms_addr_of(&v->stream_ksyms,
							    "vfs_read");
		}
	}
	if (o->hist || o->summary) {
		v->lat.hist = o->hist;
		v->lat.by = o->hist_by;
		v->lat.summary = o->summary;
		v->lat.top = o->verbose ? 0 : 25;	/* a screenful */
		v->lat.paths = paths;
		/* What -e selects of what the histograms count. */
		if (o->events_given) {
			uint64_t e = o->session.events &
				     (RINGTRACE_EVENT_VFS_READ |
				      RINGTRACE_EVENT_LOCK |
				      RINGTRACE_EVENT_LOCK_CONTENTION |
				      RINGTRACE_EVENT_OFFCPU |
				      RINGTRACE_EVENT_FUNC);

			v->lat.kinds = *rt_event_names(e, " or ", v->kinds,
						       sizeof(v->kinds)) ?
				       v->kinds : "vfs_read, lock or offcpu";
		}
		if (rt_latency_view_init(&v->lat))
			goto nomem;
		v->lat_on = true;
		if (o->input && (o->hist || o->summary))
			v->replay_interval_ns = o->perf.interval_ns;
	}
	/* --folded, --flamegraph and --report: one table (flame.h). */
	if (o->folded || o->flamegraph || o->report) {
		if (rt_folded_init(&v->folded))
			goto nomem;
		v->folded_on = true;
		v->folded.usyms = usyms_of(v);
		v->folded.paths = paths;
		v->folded.file_classes = o->file_classes;
	}
	if (v->graph_on && v->folded_on)
		graph_fold_init(v);
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
	/* Written with MMAP2 tracking (trace.c) whenever perf rings are. */
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
	/* --graph fills the table itself, read by read. */
	if (v->folded_on && !v->graph.fold)
		cat_flame_add(v, ev);
	if (v->perfetto_on)
		rt_perfetto_add(&v->perfetto, ev);
	if (v->ctf_on)
		rt_ctf_add(&v->ctf, ev);
	if (v->graph_on)
		rt_graph_add(&v->graph, ev);
}

/*
 * the symbols the recording saved (KSYMS chunk); what a damaged
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
 * went wrong names the file and the cause (a file that is no
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
 * --interval's blocks say which interval they cover, the one printed at
 * the end included (every block but the last was headed "the
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

void cat_views_stream_ended(struct cat_views *v,
			    const struct rt_source_counts *counts,
			    const struct rt_stream *st,
			    const struct rt_raw_file *f)
{
	struct rt_missing *m[] = { &v->missing, &v->missing_block };

	/* Not missing: what --min-latency asked the module to leave out. */
	v->graph.held = st->func_held;
	v->graph.fast_read = st->func_fast_read;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		m[i]->lost_pending = st->lost_pending;
		m[i]->func_missed = st->func_missed;
		m[i]->offcpu_missed = st->offcpu_missed;
		m[i]->malformed = counts->malformed;
		m[i]->unknown = counts->unknown;
		if (f) {
			m[i]->damaged_bytes = f->damaged_bytes;
			m[i]->truncated = f->truncated;
		}
	}
}

void cat_views_missing_line(const struct rt_missing *m, char *buf, size_t len)
{
	int n;

	buf[0] = '\0';
	if (!rt_missing_any(m))
		return;
	n = snprintf(buf, len, "missing: ");
	if (n > 0 && (size_t)n < len)
		rt_missing_line(m, buf + n, len - (size_t)n);
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

	/* Calls of a ninth function (a damaged file): left out as well. */
	v->missing_block.other = (keyed > rows ? keyed : rows) +
				 v->lat.func_overflow;
	rt_latency_view_unnamed(&v->lat, &v->missing_block.unnamed_files,
				&v->missing_block.unnamed_cgroups);
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
	char members[128] = "";

	if (!v->lat_on)
		return;
	interval_heading(v, now_ns, members, sizeof(members));
	print_latency(v, members);
	rt_latency_view_reset(&v->lat);
	memset(&v->missing_block, 0, sizeof(v->missing_block));
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * /proc/PID/fd of each process in the tables (the summary's rows, the
 * flame graph's file stacks), once per process.
 */
static void scan_open_files(struct cat_views *v)
{
	const struct rt_view_table *t = &v->lat.rows;
	const struct rt_folded *f = &v->folded;
	uint32_t rows = v->lat_on ? t->nr : 0;
	uint32_t files = v->folded_on ? f->nr_stacks : 0, n = 0;
	uint32_t *pids = malloc((rows + files + 1) * sizeof(*pids));

	if (!pids)
		return;
	for (uint32_t i = 0; i < rows; i++)
		pids[n++] = t->entries[i].key.pid;
	for (uint32_t i = 0, seen = 0; i < RT_FOLDED_MAX_STACKS && seen < files;
	     i++) {
		if (!f->stacks[i].count)
			continue;
		seen++;
		if (f->stacks[i].file)
			pids[n++] = f->stacks[i].pid;
	}
	qsort(pids, n, sizeof(*pids), by_u32);
	for (uint32_t i = 0; i < n; i++)
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
 * --time that matched nothing said nothing. Say what the range
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

/*
 * --graph's last line: its counts and what the stream lost (paired
 * printers: a text line, a JSON object).
 */
static void print_graph_end(struct cat_views *v)
{
	char json[RT_MISSING_JSON_MAX + 16], *p;

	rt_graph_end(&v->graph);
	/* The table's views have the output: the counts go beside it. */
	if (v->graph.fold) {
		struct rt_outbuf ob;

		if (v->o->quiet || rt_outbuf_init(&ob, STDERR_FILENO, 4096))
			return;
		rt_graph_print_summary(&v->graph, &ob);
		rt_outbuf_flush(&ob);
		rt_outbuf_fini(&ob);
		return;
	}
	if (v->format != RT_FORMAT_JSON) {
		rt_graph_print_summary(&v->graph, v->out);
		rt_missing_print(&v->missing, v->out, "");
		return;
	}
	p = json + snprintf(json, 16, ",\"missing\":");
	*rt_missing_json(p, &v->missing) = '\0';
	rt_graph_print_summary_json(&v->graph, v->out, json);
}

int cat_views_finish(struct cat_views *v)
{
	const struct options *o = v->o;
	struct rt_ksyms ksyms;
	char members[128];
	bool named = false;
	int ret = 0;

	/* Best effort: names of files still open in the processes seen. */
	if ((v->lat_on || v->folded_on) && !o->input)
		scan_open_files(v);
	/* Kernel symbols only for kernel frames (none: nothing to say). */
	if (v->folded_on && v->folded.kernel_stacks) {
		bool failed;

		named = cat_views_load_ksyms(&ksyms, o, &failed);
		if (failed)
			ret = -1;
		if (named)
			check_kallsyms_file(v, &ksyms);
	}
	members[0] = '\0';
	if (v->lat_on && v->intervals)
		interval_heading(v, 0, members, sizeof(members));
	if (v->lat_on)
		print_latency(v, members);
	if (v->folded_on && cat_flame_finish(v, named ? &ksyms : NULL))
		ret = -1;
	if (v->graph_on)
		print_graph_end(v);
	if (o->folded || o->flamegraph || o->report || v->names_on)
		usyms_notes(v);
	names_notes(v);
	if (v->perfetto_on) {
		if (rt_missing_any(&v->missing)) {
			char line[512], json[RT_MISSING_JSON_MAX];

			cat_views_missing_line(&v->missing, line, sizeof(line));
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

		/* which part --filter turned away, when not all. */
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
	if (v->graph_on)
		rt_graph_fini(&v->graph);
	v->graph_on = false;
	if (v->folded_on)
		rt_folded_fini(&v->folded);
	if (v->names_on) {
		rt_output_set_frame_names(NULL, NULL);
		rt_frame_names_fini(&v->names);
		v->names_on = false;
	}
	rt_output_set_func_namer(NULL, NULL);
	if (v->stream_ksyms_on)
		rt_ksyms_free(&v->stream_ksyms);
	v->stream_ksyms_on = false;
	if (v->usyms_on)
		rt_usyms_fini(&v->usyms);
	v->usyms_on = false;
}
