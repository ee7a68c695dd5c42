// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a tracepoint by name (tracepoint.h): the kernel's own with
 * for_each_kernel_tracepoint(), a module's through the tracepoint module
 * notifier. The kernel has no exported walk of the modules' tracepoints,
 * but registering a notifier replays MODULE_STATE_COMING for every module
 * with tracepoints already loaded, under the kernel's module list mutex:
 * the lookup registers one for the length of the walk, takes a reference
 * on the module whose tracepoint has the name (try_module_get() fails for
 * one being unloaded), and unregisters it (whose replay of GOING the
 * callback ignores).
 */
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "tracepoint.h"

struct rt_tracepoint_lookup {
	const char		*name;
	struct tracepoint	*found;
	struct module		*mod;	/* referenced, if found in one */
	struct notifier_block	nb;
};

static void rt_tracepoint_match(struct tracepoint *tp, void *priv)
{
	struct rt_tracepoint_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->found = tp;
}

struct tracepoint *rt_tracepoint_find(const char *name)
{
	struct rt_tracepoint_lookup l = { .name = name };

	for_each_kernel_tracepoint(rt_tracepoint_match, &l);
	return l.found;
}

#if defined(CONFIG_MODULES) && defined(CONFIG_TRACEPOINTS)

/* Called with the kernel's tracepoint module list mutex held. */
static int rt_tracepoint_module_match(struct notifier_block *nb,
				      unsigned long state, void *data)
{
	struct rt_tracepoint_lookup *l =
		container_of(nb, struct rt_tracepoint_lookup, nb);
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	struct tracepoint *tp;
	unsigned int i;

	if (state != MODULE_STATE_COMING || l->found)
		return NOTIFY_DONE;
	for (i = 0; i < mod->num_tracepoints; i++) {
		tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (strcmp(tp->name, l->name))
			continue;
		/* Being unloaded: as if it were gone already. */
		if (try_module_get(mod)) {
			l->found = tp;
			l->mod = mod;
		}
		break;
	}
	return NOTIFY_DONE;
}

static struct tracepoint *rt_tracepoint_find_module(const char *name,
						    struct module **mod)
{
	struct rt_tracepoint_lookup l = {
		.name		= name,
		.nb.notifier_call = rt_tracepoint_module_match,
	};

	if (register_tracepoint_module_notifier(&l.nb))
		return NULL;
	/* Only fails for a block that is not registered. */
	WARN_ON_ONCE(unregister_tracepoint_module_notifier(&l.nb));
	*mod = l.mod;
	return l.found;
}

#else

static struct tracepoint *rt_tracepoint_find_module(const char *name,
						    struct module **mod)
{
	return NULL;
}

#endif

struct tracepoint *rt_tracepoint_get(const char *name, struct module **mod)
{
	struct tracepoint *tp = rt_tracepoint_find(name);

	*mod = NULL;
	return tp ?: rt_tracepoint_find_module(name, mod);
}

void rt_tracepoint_put(struct module *mod)
{
	module_put(mod);	/* NULL: a built-in tracepoint's, nothing held */
}
