// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The SVG flame graph (see flamegraph.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/flamegraph.h"
#include "ringtrace/folded.h"
#include "ringtrace/hash.h"

#define WIDTH		1200
#define FRAME_H		16
#define PAD_TOP		60
#define PAD_BOTTOM	30
#define PAD_SIDE	10
#define CHAR_W		7.3		/* px per character: monospace, 12px */

static uint32_t intern(struct rt_flame *f, const char *s, size_t len)
{
	uint32_t off;

	if (f->names_len + len + 1 > f->names_cap) {
		size_t cap = f->names_cap ? f->names_cap * 2 : 65536;
		char *p;

		while (cap < f->names_len + len + 1)
			cap *= 2;
		p = realloc(f->names, cap);
		if (!p) {
			f->error = -ENOMEM;
			return 0;
		}
		f->names = p;
		f->names_cap = cap;
	}
	off = (uint32_t)f->names_len;
	memcpy(f->names + off, s, len);
	f->names[off + len] = '\0';
	f->names_len += len + 1;
	return off;
}

static uint32_t new_node(struct rt_flame *f, const char *name, size_t len,
			 uint32_t depth)
{
	struct rt_flame_node *n;

	if (f->nr == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 4096;

		n = realloc(f->nodes, cap * sizeof(*n));
		if (!n) {
			f->error = -ENOMEM;
			return 0;
		}
		f->nodes = n;
		f->cap = cap;
	}
	n = &f->nodes[f->nr];
	memset(n, 0, sizeof(*n));
	n->name = intern(f, name, len);
	n->depth = depth;
	if (depth > f->max_depth)
		f->max_depth = depth;
	return f->nr++;
}

int rt_flame_init(struct rt_flame *f)
{
	memset(f, 0, sizeof(*f));
	new_node(f, "all", 3, 0);
	return f->error;
}

void rt_flame_fini(struct rt_flame *f)
{
	free(f->nodes);
	free(f->names);
	memset(f, 0, sizeof(*f));
}

/* The child of @parent named @name (len bytes), made if missing. */
static uint32_t child(struct rt_flame *f, uint32_t parent, const char *name,
		      size_t len)
{
	uint32_t c, prev = 0, n;

	for (c = f->nodes[parent].child; c; prev = c, c = f->nodes[c].sibling) {
		const char *s = f->names + f->nodes[c].name;

		if (!strncmp(s, name, len) && s[len] == '\0')
			return c;
	}
	n = new_node(f, name, len, f->nodes[parent].depth + 1);
	if (!n)
		return 0;
	if (prev)
		f->nodes[prev].sibling = n;
	else
		f->nodes[parent].child = n;
	return n;
}

/*
 * One level down from @at, adding the weights (@before: a differential
 * graph's): the frame named @name, or past RT_FLAME_MAX_DEPTH the one
 * RT_FLAME_DEEPER node that holds every frame below (*@capped set, to
 * count the stack once). 0 when out of memory.
 */
static uint32_t descend(struct rt_flame *f, uint32_t at, const char *name,
			size_t len, uint64_t before, uint64_t after,
			bool *capped)
{
	uint32_t parent;

	if (f->nodes[at].depth >= RT_FLAME_MAX_DEPTH) {
		if (*capped)
			return at;
		*capped = true;
		f->capped++;
		name = RT_FLAME_DEEPER;
		len = strlen(RT_FLAME_DEEPER);
	}
	parent = at;
	at = child(f, at, name, len);
	if (at) {
		f->nodes[at].value += after;
		f->nodes[at].before += before;
		/* --graph's time off CPU: the frame and where it blocked. */
		f->nodes[at].offcpu = f->nodes[parent].offcpu ||
			(len == sizeof(RT_FOLDED_OFFCPU_NAME) - 1 &&
			 !memcmp(name, RT_FOLDED_OFFCPU_NAME, len));
	}
	return at;
}

void rt_flame_add(struct rt_flame *f, const char *const *frames, uint32_t nr,
		  uint64_t weight)
{
	bool capped = false;
	uint32_t at = 0;

	if (!f->nodes || !weight)
		return;
	f->nodes[0].value += weight;
	for (uint32_t i = 0; i < nr; i++) {
		at = descend(f, at, frames[i], strlen(frames[i]), 0, weight,
			     &capped);
		if (!at)
			return;
	}
}

/* Walk (and grow) the path of @stack ("a;b;c", @len bytes), adding weights. */
static int add_path(struct rt_flame *f, const char *stack, size_t len,
		    uint64_t before, uint64_t after)
{
	const char *p, *end, *stop = stack + len;
	bool capped = false;
	uint32_t at = 0;

	f->nodes[0].value += after;
	f->nodes[0].before += before;
	for (p = stack; p < stop; p = end + 1) {
		end = memchr(p, ';', (size_t)(stop - p));
		if (!end)
			end = stop;
		at = descend(f, at, p, (size_t)(end - p), before, after,
			     &capped);
		if (!at)
			return -1;
	}
	return 0;
}

int rt_flame_add_folded(struct rt_flame *f, const char *line, size_t len)
{
	const char *sp, *p;
	uint64_t count = 0;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	sp = memrchr(line, ' ', len);
	if (!sp || sp + 1 == line + len)
		return -1;
	for (p = sp + 1; p < line + len; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		count = count * 10 + (uint64_t)(*p - '0');
	}
	if (!f->nodes || !count)
		return 0;
	return add_path(f, line, (size_t)(sp - line), 0, count);
}

void rt_flame_add_diff(struct rt_flame *f, const char *stack, size_t len,
		       uint64_t before, uint64_t after)
{
	f->diff = true;
	if (f->nodes && (before || after))
		add_path(f, stack, len, before, after);
}

/* ---- writing ---- */

static void put(struct rt_outbuf *ob, const char *s)
{
	rt_outbuf_append(ob, s, strlen(s));
}

/* @s escaped for XML text and attributes, at most @max characters. */
static void put_xml(struct rt_outbuf *ob, const char *s, size_t max)
{
	char buf[512];
	size_t n = 0;

	for (size_t i = 0; s[i] && i < max; i++) {
		const char *rep = NULL;
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		default:
			/* XML 1.0 forbids most control characters. */
			if (c < 0x20)
				rep = "?";
		}
		if (n + 8 > sizeof(buf)) {
			rt_outbuf_append(ob, buf, n);
			n = 0;
		}
		if (rep) {
			memcpy(buf + n, rep, strlen(rep));
			n += strlen(rep);
		} else {
			buf[n++] = (char)c;
		}
	}
	rt_outbuf_append(ob, buf, n);
}

/*
 * Stable warm colour from the name; kernel frames ("_[k]") orange, files
 * blue. @io (off-CPU time): flamegraph.pl --color=io's blue-greys.
 */
static void colour(const char *name, char *buf, size_t len, bool io)
{
	size_t n = strlen(name);
	uint32_t h = rt_fnv32(RT_FNV32_INIT, name, n);
	unsigned int r, g, b;

	if (io) {
		r = 80 + h % 60; g = r; b = 190 + (h >> 8) % 55;
	} else if (n > 4 && !strcmp(name + n - 4, "_[k]")) {
		r = 220 + h % 35; g = 120 + (h >> 8) % 60; b = 30 + (h >> 16) % 30;
	} else if (name[0] == '/' || strstr(name, " ino ")) {
		r = 80 + h % 50; g = 140 + (h >> 8) % 50; b = 210 + (h >> 16) % 45;
	} else {
		r = 205 + h % 50; g = 60 + (h >> 8) % 130; b = 40 + (h >> 16) % 40;
	}
	snprintf(buf, len, "rgb(%u,%u,%u)", r, g, b);
}

static int64_t change(const struct rt_flame_node *n)
{
	return (int64_t)(n->value - n->before);
}

/*
 * Differential colour: red for growth, blue for shrinkage, the other two
 * channels falling from 210 towards 0 as the change nears the largest
 * one, @max; grey (225) only for no change, so that the smallest change
 * still shows its sign (as flamegraph.pl's 210). True when the colour is
 * a dark blue, on which the label is written white.
 */
static bool diff_colour(int64_t delta, uint64_t max, char *buf, size_t len)
{
	uint64_t mag = delta < 0 ? (uint64_t)-delta : (uint64_t)delta;
	unsigned int fade = !max ? 210 : mag >= max ? 0 :
			    (unsigned int)(210.0 * (double)(max - mag) /
					   (double)max + 0.5);

	if (delta > 0)
		snprintf(buf, len, "rgb(255,%u,%u)", fade, fade);
	else if (delta < 0)
		snprintf(buf, len, "rgb(%u,%u,255)", fade, fade);
	else
		snprintf(buf, len, "rgb(225,225,225)");
	return delta < 0 && fade < 120;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* " (before B, after A UNIT; X% -> Y% of all; change +D, +P%)" */
static void diff_hover(const struct rt_flame *f, const struct rt_flame_node *n,
		       const char *unit, char *buf, size_t len)
{
	const struct rt_flame_node *all = &f->nodes[0];
	int64_t delta = change(n);
	char rel[32];

	if (n->before)
		snprintf(rel, sizeof(rel), "%+.2f%%",
			 100.0 * (double)delta / (double)n->before);
	else
		snprintf(rel, sizeof(rel), "new");
	snprintf(buf, len, " (before %llu, after %llu %s; %.2f%% -> %.2f%% of "
		 "all; change %+lld, %s)", (unsigned long long)n->before,
		 (unsigned long long)n->value, unit, share(n->before, all->before),
		 share(n->value, all->value), (long long)delta, rel);
}

static void write_frame(const struct rt_flame *f, const struct rt_flame_node *n,
			uint64_t x, struct rt_outbuf *ob, const char *unit,
			uint64_t max_delta)
{
	double scale = (double)(WIDTH - 2 * PAD_SIDE) / (double)f->nodes[0].value;
	double px = PAD_SIDE + (double)x * scale, pw = (double)n->value * scale;
	double py = PAD_TOP + (double)(f->max_depth - n->depth) * FRAME_H;
	const char *name = f->names + n->name;
	char col[32], num[320];
	bool dark = false;
	/* Characters that fit with a margin; under 3, no label (as the script). */
	size_t fit = pw / CHAR_W >= 5 ? (size_t)(pw / CHAR_W) - 2 : 0;

	snprintf(num, sizeof(num), "<g data-x=\"%llu\" data-v=\"%llu\" data-d=\"%u\"",
		 (unsigned long long)x, (unsigned long long)n->value, n->depth);
	put(ob, num);
	if (f->diff) {
		snprintf(num, sizeof(num), " data-b=\"%llu\"",
			 (unsigned long long)n->before);
		put(ob, num);
	}
	put(ob, "><title>");
	put_xml(ob, name, 4096);
	if (f->diff) {
		diff_hover(f, n, unit, num, sizeof(num));
		put_xml(ob, num, sizeof(num));
		put(ob, "</title>");
		dark = diff_colour(change(n), max_delta, col, sizeof(col));
	} else {
		snprintf(num, sizeof(num), " (%llu %s, %.2f%%)</title>",
			 (unsigned long long)n->value, unit,
			 100.0 * (double)n->value / (double)f->nodes[0].value);
		put(ob, num);
		colour(name, col, sizeof(col), f->io_palette || n->offcpu);
	}
	snprintf(num, sizeof(num), "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		 "height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%.1f\"%s>",
		 px, py, pw, FRAME_H - 1, col, px + 3, py + 11.5,
		 dark ? " style=\"fill:#fff\"" : "");
	put(ob, num);
	if (fit && strlen(name) <= fit) {
		put_xml(ob, name, fit);
	} else if (fit) {
		put_xml(ob, name, fit - 2);	/* fit >= 3 */
		put(ob, "..");
	}
	put(ob, "</text></g>\n");
}

static const struct rt_flame *sort_graph;

static int by_name(const void *a, const void *b)
{
	const struct rt_flame_node *x = &sort_graph->nodes[*(const uint32_t *)a];
	const struct rt_flame_node *y = &sort_graph->nodes[*(const uint32_t *)b];

	return strcmp(sort_graph->names + x->name, sort_graph->names + y->name);
}

/* A frame, then its children left to right by name from its left edge. */
static void write_tree(const struct rt_flame *f, uint32_t i, uint64_t x,
		       struct rt_outbuf *ob, const char *unit, uint64_t max_delta)
{
	uint32_t kids = 0, *order;

	/* A frame only BEFORE had: no width in AFTER's shape. */
	if (!f->nodes[i].value)
		return;
	write_frame(f, &f->nodes[i], x, ob, unit, max_delta);
	for (uint32_t c = f->nodes[i].child; c; c = f->nodes[c].sibling)
		kids++;
	if (!kids)
		return;
	order = malloc(kids * sizeof(*order));
	if (!order)
		return;
	kids = 0;
	for (uint32_t c = f->nodes[i].child; c; c = f->nodes[c].sibling)
		order[kids++] = c;
	sort_graph = f;
	qsort(order, kids, sizeof(*order), by_name);
	for (uint32_t k = 0; k < kids; k++) {
		write_tree(f, order[k], x, ob, unit, max_delta);
		x += f->nodes[order[k]].value;
	}
	free(order);
}

/*
 * The viewer: hover -> status line; click -> zoom; Search -> regexp
 * highlight with the matched share. Frames keep their weight (data-v),
 * left edge (data-x) and depth (data-d); zooming recomputes x and width.
 */
static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"'use strict';\n"
"var W = WIDTH_PX, PAD = PAD_PX, CW = CHAR_PX, total = 0, unit = '';\n"
"var frames = [], statusLine, zoomed = null;  /* not status: window.status */\n"
"var diff = false;  /* a differential graph: the hover line is the title */\n"
"function init() {\n"
"  statusLine = document.getElementById('status');\n"
"  unit = document.documentElement.getAttribute('data-unit');\n"
"  diff = document.documentElement.hasAttribute('data-diff');\n"
"  var gs = document.getElementById('frames').getElementsByTagName('g');\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i];\n"
"    var f = { g: g, x: +g.getAttribute('data-x'), v: +g.getAttribute('data-v'),\n"
"      d: +g.getAttribute('data-d'), r: g.getElementsByTagName('rect')[0],\n"
"      t: g.getElementsByTagName('text')[0],\n"
"      title: g.getElementsByTagName('title')[0].textContent };\n"
"    f.name = f.title.replace(/ \\([^(]*\\)$/, '');\n"
"    f.fill = f.r.getAttribute('fill');\n"
"    if (f.d === 0) total = f.v;\n"
"    frames.push(f);\n"
"    g.onmouseover = (function (f) { return function () {\n"
"      statusLine.textContent = diff ? f.title : f.name + ': ' + f.v + ' ' +\n"
"        unit + ' (' + (100 * f.v / total).toFixed(2) + '%)'; }; })(f);\n"
"    g.onmouseout = function () { statusLine.textContent = ' '; };\n"
"    g.onclick = (function (f) { return function () { zoom(f); }; })(f);\n"
"  }\n"
"}\n"
"function label(f, w) {\n"
"  var fit = Math.floor(w / CW) - 2;\n"
"  if (fit < 3) return '';\n"
"  return f.name.length > fit ? f.name.substr(0, fit - 2) + '..' : f.name;\n"
"}\n"
"function place(f, x, w) {\n"
"  f.r.setAttribute('x', x); f.r.setAttribute('width', w);\n"
"  f.t.setAttribute('x', x + 3); f.t.textContent = label(f, w);\n"
"  f.g.style.display = '';\n"
"}\n"
"function zoom(z) {\n"
"  var span = W - 2 * PAD, s = span / z.v;\n"
"  zoomed = z;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (f.d < z.d && f.x <= z.x && f.x + f.v >= z.x + z.v)\n"
"      place(f, PAD, span);\n"
"    else if (f.d >= z.d && f.x >= z.x && f.x + f.v <= z.x + z.v)\n"
"      place(f, PAD + (f.x - z.x) * s, f.v * s);\n"
"    else\n"
"      f.g.style.display = 'none';\n"
"  }\n"
"  document.getElementById('unzoom').style.opacity = z.d ? 1 : 0.3;\n"
"}\n"
"function unzoom() { zoom(frames[0]); }\n"
"function search() {\n"
"  var re = prompt('Search (regular expression):', '');\n"
"  var matched = 0, lastx = -1, lastend = -1, sorted = [];\n"
"  if (re === null) return;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    f.r.setAttribute('fill', f.fill);\n"
"    if (re !== '' && new RegExp(re).test(f.name)) {\n"
"      f.r.setAttribute('fill', 'rgb(230,0,230)'); sorted.push(f);\n"
"    }\n"
"  }\n"
"  /* A frame inside a matched one is not counted twice. */\n"
"  sorted.sort(function (a, b) { return a.x - b.x || b.v - a.v; });\n"
"  for (var j = 0; j < sorted.length; j++) {\n"
"    if (sorted[j].x >= lastend) { matched += sorted[j].v; lastend = sorted[j].x + sorted[j].v; }\n"
"  }\n"
"  document.getElementById('matched').textContent = re === '' ? ' ' :\n"
"    'Matched: ' + (100 * matched / total).toFixed(2) + '%';\n"
"}\n"
"]]></script>\n";

static void put_script(struct rt_outbuf *ob)
{
	char num[16];
	const char *p = script, *q;
	static const struct {
		const char	*key;
		double		val;
	} subst[] = {
		{ "WIDTH_PX", WIDTH }, { "PAD_PX", PAD_SIDE }, { "CHAR_PX", CHAR_W },
	};

	while ((q = strstr(p, "_PX"))) {
		const char *start = q;
		size_t i;

		while (start > p && start[-1] >= 'A' && start[-1] <= 'Z')
			start--;
		rt_outbuf_append(ob, p, (size_t)(start - p));
		for (i = 0; i < sizeof(subst) / sizeof(subst[0]); i++)
			if (!strncmp(start, subst[i].key, strlen(subst[i].key)))
				break;
		snprintf(num, sizeof(num), "%g", i < 3 ? subst[i].val : 0.0);
		put(ob, num);
		p = q + 3;
	}
	put(ob, p);
}

/*
 * Full colour: the largest change a frame makes by itself, its change
 * less its children's (flamegraph.pl's scale, its self deltas). A caller
 * of what changed shows the sum of its children's changes and saturates;
 * the frames where work appeared or went away keep their contrast however
 * many of them share the total. Frames only BEFORE had count: their
 * change is the work that went away.
 */
static uint64_t max_change(const struct rt_flame *f)
{
	uint64_t max = 0;

	for (uint32_t i = 1; f->diff && i < f->nr; i++) {
		int64_t self = change(&f->nodes[i]);

		for (uint32_t c = f->nodes[i].child; c; c = f->nodes[c].sibling)
			self -= change(&f->nodes[c]);
		if ((uint64_t)(self < 0 ? -self : self) > max)
			max = (uint64_t)(self < 0 ? -self : self);
	}
	return max;
}

void rt_flame_write_svg(const struct rt_flame *f, struct rt_outbuf *ob,
			const char *title, const char *unit)
{
	int height = PAD_TOP + (int)(f->max_depth + 1) * FRAME_H + PAD_BOTTOM;
	char buf[512];

	put(ob, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
	snprintf(buf, sizeof(buf), "<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
		 "viewBox=\"0 0 %d %d\" onload=\"init()\" "
		 "xmlns=\"http://www.w3.org/2000/svg\"%s data-unit=\"", WIDTH,
		 height, WIDTH, height, f->diff ? " data-diff=\"1\"" : "");
	put(ob, buf);
	put_xml(ob, unit, 256);
	put(ob, "\">\n<style>text { font-family: monospace; font-size: 12px; "
		"fill: #000; pointer-events: none; } g rect:hover { stroke: #000; "
		"stroke-width: 0.5; cursor: pointer; } .ui { cursor: pointer; "
		"font-size: 13px; pointer-events: all; }</style>\n");
	put_script(ob);
	snprintf(buf, sizeof(buf), "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		 "fill=\"#f8f8f0\"/>\n<text x=\"%d\" y=\"24\" text-anchor=\"middle\" "
		 "style=\"font-size:17px\">", WIDTH, height, WIDTH / 2);
	put(ob, buf);
	put_xml(ob, title, 256);
	if (f->subtitle) {
		snprintf(buf, sizeof(buf), "</text>\n<text x=\"%d\" y=\"44\" "
			 "text-anchor=\"middle\" style=\"fill:#555\">", WIDTH / 2);
		put(ob, buf);
		put_xml(ob, f->subtitle, 256);
	}
	snprintf(buf, sizeof(buf), "</text>\n<text id=\"unzoom\" class=\"ui\" x=\"%d\" "
		 "y=\"24\" style=\"opacity:0.3\" onclick=\"unzoom()\">Reset zoom"
		 "</text>\n<text class=\"ui\" x=\"%d\" y=\"24\" onclick=\"search()\">"
		 "Search</text>\n<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n"
		 "<text id=\"status\" x=\"%d\" y=\"%d\"> </text>\n<g id=\"frames\">\n",
		 PAD_SIDE, WIDTH - 70, WIDTH - 200, height - 10, PAD_SIDE,
		 height - 10);
	put(ob, buf);
	if (f->nodes && f->nodes[0].value)
		write_tree(f, 0, 0, ob, unit, max_change(f));
	put(ob, "</g>\n</svg>\n");
}
