// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-exporter: ringtrace's histograms and counters for Prometheus.
 *
 * The main thread reads: the rings through libringtrace's stream (as
 * ringtrace-cat does), or a raw file (-i) through the same stream code,
 * each decoded event going to the metrics table (metrics.h) as a sink. An
 * HTTP thread (libmicrohttpd's own) prints the table on each scrape of
 * /metrics. A mutex orders the two: the reader holds it for one event (no
 * system call while uncontended), a scrape for one printing.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "exporter_opt.h"
#include "ringtrace/folded.h"
#include "ringtrace/metrics.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"

#define PROG "ringtrace-exporter"

struct exporter {
	const struct exporter_opts	*o;
	pthread_mutex_t			lock;	/* the table, the counts below */
	struct rt_metrics		m;
	uint64_t			lost_pending;
	/* -e func:NAME calls missed: a replay's, or the session's at its end */
	uint64_t			func_missed;
	/* Live, while it traces: its func_missed is read at each scrape. */
	struct rt_session		*session;
	clockid_t			reader_clock;	/* the main thread's */
};

static volatile sig_atomic_t stop_requested;
static const sigset_t *stop_signals;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void sink(void *arg, const struct rt_event *ev)
{
	struct exporter *x = arg;

	pthread_mutex_lock(&x->lock);
	rt_metrics_add(&x->m, ev);
	pthread_mutex_unlock(&x->lock);
}

/*
 * Live, the calls the probes missed so far: the session's count, read
 * now (GET_STATS is one ioctl; the kernel keeps it exact), under the lock
 * that keeps the session open.
 */
static void live_func_missed(struct exporter *x, struct rt_metrics_health *h)
{
	struct ringtrace_stats k;

	if (x->session && x->session->nr_funcs &&
	    !rt_session_stats(x->session, &k))
		h->func_missed = k.func_missed;
}

/* The table as text, under the lock; 0 or -errno. */
static int print_metrics(struct exporter *x, FILE *f)
{
	struct rt_metrics_health h = { 0 };
	struct timespec ts;
	int ret;

	if (!clock_gettime(x->reader_clock, &ts))
		h.reader_cpu_ns = (uint64_t)ts.tv_sec * 1000000000u +
				  (uint64_t)ts.tv_nsec;
	pthread_mutex_lock(&x->lock);
	h.lost_pending = x->lost_pending;
	h.func_missed = x->func_missed;
	live_func_missed(x, &h);
	ret = rt_metrics_print_prom(f, &x->m, &h);
	pthread_mutex_unlock(&x->lock);
	return ret;
}

/*
 * PATH.tmp then rename(): the collector never reads half a file. "-":
 * standard output (a replay's metrics, once).
 */
static int write_textfile(struct exporter *x)
{
	char tmp[4096];
	FILE *f;
	int ret;

	if (!strcmp(x->o->textfile, "-")) {	/* standard output, as it is */
		ret = print_metrics(x, stdout);
		if (fflush(stdout) && !ret)
			ret = -EIO;
		return ret;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", x->o->textfile) >=
	    (int)sizeof(tmp)) {
		fprintf(stderr, PROG ": --textfile: path too long\n");
		return -ENAMETOOLONG;
	}
	f = fopen(tmp, "w");
	if (!f) {
		ret = -errno;
		fprintf(stderr, PROG ": cannot write %s: %s\n", tmp,
			strerror(errno));
		return ret;
	}
	ret = print_metrics(x, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret && rename(tmp, x->o->textfile))
		ret = -errno;
	if (ret) {
		fprintf(stderr, PROG ": cannot write %s: %s\n",
			x->o->textfile, strerror(-ret));
		unlink(tmp);
	}
	return ret;
}

static void on_interval(void *arg, uint64_t now_ns)
{
	(void)now_ns;
	write_textfile(arg);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     char *body, size_t len, enum MHD_ResponseMemoryMode
			     mode, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	static char root[] = "<html><body><a href=\"/metrics\">metrics</a>"
			     "</body></html>\n";
	static char not_found[] = "not found\n";
	static char not_allowed[] = "only GET and HEAD\n";
	struct exporter *x = cls;
	char *body = NULL;
	size_t len = 0;
	FILE *f;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed,
			     sizeof(not_allowed) - 1, MHD_RESPMEM_PERSISTENT,
			     "text/plain");
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, root, sizeof(root) - 1,
			     MHD_RESPMEM_PERSISTENT, "text/html");
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, not_found,
			     sizeof(not_found) - 1, MHD_RESPMEM_PERSISTENT,
			     "text/plain");
	f = open_memstream(&body, &len);
	if (!f)
		return MHD_NO;
	if (print_metrics(x, f)) {
		fclose(f);
		free(body);
		return MHD_NO;
	}
	if (fclose(f)) {
		free(body);
		return MHD_NO;
	}
	return reply(c, MHD_HTTP_OK, body, len, MHD_RESPMEM_MUST_FREE,
		     "text/plain; version=0.0.4; charset=utf-8");
}

/* "HOST:PORT", "[V6]:PORT", ":PORT" into a socket address. */
static int resolve_listen(const char *spec, struct sockaddr_storage *sa,
			  socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	char host[256];
	const char *colon = strrchr(spec, ':'), *h = host;
	struct addrinfo *res;
	size_t hl;
	int ret;

	const char *given = spec;

	if (!colon || !colon[1]) {
		fprintf(stderr, PROG ": --listen %s: HOST:PORT expected\n",
			spec);
		return -1;
	}
	hl = (size_t)(colon - spec);
	if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		fprintf(stderr, PROG ": --listen: host name too long\n");
		return -1;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	if (!hl)
		h = NULL;	/* every address */
	ret = getaddrinfo(h, colon + 1, &hints, &res);
	if (ret) {
		fprintf(stderr, PROG ": --listen %s: %s\n", given,
			gai_strerror(ret));
		return -1;
	}
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static struct MHD_Daemon *start_http(struct exporter *x)
{
	struct sockaddr_storage sa;
	socklen_t len;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD |
			     MHD_USE_ERROR_LOG;
	const union MHD_DaemonInfo *info;
	struct MHD_Daemon *d;
	char host[NI_MAXHOST], port[NI_MAXSERV];
	sigset_t old;

	if (resolve_listen(x->o->listen, &sa, &len))
		return NULL;
	if (sa.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* Its thread inherits a mask with SIGINT and SIGTERM blocked. */
	pthread_sigmask(SIG_BLOCK, stop_signals, &old);
	d = MHD_start_daemon(flags, 0, NULL, NULL, handle, x,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
			     MHD_OPTION_CONNECTION_TIMEOUT, 30u,
			     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d) {
		fprintf(stderr, PROG ": cannot listen on %s: %s\n",
			x->o->listen, strerror(errno ? errno : EADDRINUSE));
		return NULL;
	}
	/* Port 0: say which one the kernel chose. */
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
	len = sizeof(sa);
	if (!x->o->quiet && info &&
	    !getsockname(info->listen_fd, (struct sockaddr *)&sa, &len) &&
	    !getnameinfo((struct sockaddr *)&sa, len, host, sizeof(host),
			 port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
		fprintf(stderr, PROG ": serving http://%s%s%s:%s/metrics\n",
			sa.ss_family == AF_INET6 ? "[" : "", host,
			sa.ss_family == AF_INET6 ? "]" : "", port);
	return d;
}

/*
 * A replay's func records are named after the recording's symbols (its
 * KSYMS chunk holds the functions it traced), as ringtrace-cat names
 * them; without them the function label stays hex. Damage is said by
 * the replay itself.
 */
static void replay_func_names(const char *path, struct rt_ksyms *k)
{
	struct rt_raw_file f;
	char err[256];

	/* Standard input can be read once, by the replay. */
	if (!strcmp(path, "-"))
		return;
	if (!rt_raw_open(&f, path) &&
	    rt_raw_read_ksyms(&f, k, err, sizeof(err)) > 0)
		rt_output_set_func_namer(rt_ksyms_func_name, k);
	rt_raw_close(&f);
}

static int replay(struct exporter *x, struct rt_stream *st)
{
	struct rt_ksyms ksyms = { 0 };
	struct rt_raw_file f;
	int ret;

	ret = rt_raw_open(&f, x->o->input);
	if (ret) {
		fprintf(stderr, PROG ": %s\n", f.errmsg);
		rt_raw_close(&f);
		return EXIT_FAILURE;
	}
	replay_func_names(x->o->input, &ksyms);
	/* The names the session traced, when the recording kept them. */
	rt_output_set_func_names((const char (*)[RINGTRACE_FUNC_NAME_LEN])
				 f.func_names, f.nr_func_names);
	ret = rt_stream_file(st, &f);
	if (ret)
		fprintf(stderr, PROG ": %s\n", st->errmsg);
	if (rt_raw_report_damage(&f, stderr, PROG))
		ret = 1;
	pthread_mutex_lock(&x->lock);
	x->lost_pending = st->lost_pending;
	x->func_missed = st->func_missed;	/* its FUNC_MISSED chunks */
	pthread_mutex_unlock(&x->lock);
	/* The metrics hold copies of the names: the symbols can go. */
	rt_output_set_func_names(NULL, 0);
	rt_raw_close(&f);
	rt_output_set_func_namer(NULL, NULL);
	rt_ksyms_free(&ksyms);
	if (!x->o->quiet)
		fprintf(stderr, PROG ": %s: %llu records\n", x->o->input,
			(unsigned long long)(x->m.records[RT_EVENT_VFS_READ] +
					     x->m.records[RT_EVENT_LOCK] +
					     x->m.records[RT_EVENT_OFFCPU] +
					     x->m.records[RT_EVENT_FUNC]));
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Serves from once the session traces (no port bound without one). */
static int trace(struct exporter *x, struct rt_stream *st,
		 struct MHD_Daemon **d)
{
	struct rt_session s;
	int ret;

	if (rt_session_open(&s, NULL) ||
	    rt_session_setup(&s, &x->o->session)) {
		fprintf(stderr, PROG ": %s\n", s.errmsg);
		rt_session_close(&s);
		return EXIT_FAILURE;
	}
	if (rt_session_enable(&s)) {
		fprintf(stderr, PROG ": %s\n", s.errmsg);
		rt_session_close(&s);
		return EXIT_FAILURE;
	}
	pthread_mutex_lock(&x->lock);
	x->session = &s;
	pthread_mutex_unlock(&x->lock);
	/* func records are named from the session's list, as ringtrace-cat's. */
	rt_output_set_func_names(x->o->session.funcs, x->o->session.nr_funcs);
	/* "serving ..." once it traces: a caller may start its workload. */
	if (x->o->listen) {
		*d = start_http(x);
		if (!*d) {
			x->session = NULL;	/* no other thread: no scrape */
			rt_session_close(&s);
			return EXIT_FAILURE;
		}
	}
	if (x->o->textfile) {
		st->interval_ns = x->o->textfile_ns;
		st->on_interval = on_interval;
		st->interval_arg = x;
	}
	ret = rt_stream_live(st, &s);
	if (ret)
		fprintf(stderr, PROG ": %s\n", st->errmsg);
	pthread_mutex_lock(&x->lock);
	x->lost_pending = st->lost_pending;
	x->func_missed = st->func_missed;	/* read after DISABLE */
	x->session = NULL;
	pthread_mutex_unlock(&x->lock);
	rt_session_close(&s);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	struct exporter_opts o;
	struct exporter x = { .o = &o };
	struct rt_outbuf ob;
	struct rt_paths paths;
	struct rt_stream st = {
		.format = RT_FORMAT_TEXT,
		.stop = &stop_requested,
		.window_ns = RT_DEFAULT_REORDER_WINDOW_NS,
		.sink = sink,
		.sink_arg = &x,
		.paths = &paths,
		.follow_rings = true,
	};
	struct MHD_Daemon *d = NULL;
	sigset_t stop_set, old_mask;
	struct sigaction sa;
	int code;

	code = exporter_parse(argc, argv, &o);
	if (code)
		return code < 0 ? 2 : 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/*
	 * The stream blocks them around its check of stop_requested and
	 * unblocks them atomically while it sleeps (stream.h); the HTTP
	 * thread never takes them (start_http()).
	 */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	stop_signals = &stop_set;
	st.stop_signals = &stop_set;

	if (pthread_getcpuclockid(pthread_self(), &x.reader_clock))
		x.reader_clock = CLOCK_THREAD_CPUTIME_ID;
	pthread_mutex_init(&x.lock, NULL);
	/* Records are never printed: the sink takes them all. */
	if (rt_outbuf_init(&ob, STDOUT_FILENO, 4096)) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_FAILURE;
	}
	st.out = &ob;
	if (rt_metrics_init(&x.m, o.max_series) || rt_paths_init(&paths)) {
		fprintf(stderr, PROG ": out of memory\n");
		rt_metrics_fini(&x.m);
		rt_outbuf_fini(&ob);
		return EXIT_FAILURE;
	}
	/*
	 * Live: served while tracing. A replay is served once read (a
	 * scrape never sees half a file), until SIGINT or SIGTERM.
	 */
	code = o.input ? replay(&x, &st) : trace(&x, &st, &d);
	if (o.textfile && write_textfile(&x) && code == EXIT_SUCCESS)
		code = EXIT_FAILURE;
	if (o.input && o.listen && code == EXIT_SUCCESS) {
		d = start_http(&x);
		if (!d)
			code = EXIT_FAILURE;
		/* Checked blocked, slept unblocked: no signal slips between. */
		sigprocmask(SIG_BLOCK, &stop_set, &old_mask);
		while (d && !stop_requested)
			sigsuspend(&old_mask);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	}
	if (d)
		MHD_stop_daemon(d);
	rt_paths_fini(&paths);
	rt_metrics_fini(&x.m);
	rt_outbuf_fini(&ob);
	pthread_mutex_destroy(&x.lock);
	return code;
}
