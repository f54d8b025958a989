/*
 * klist.h: a list that may be walked while it changes, Linux 2.6.13's
 * klist (lib/klist.c), which replaced the bus subsystem's rwsem for a
 * bus's devices and drivers. A spinlock guards the links; a walker holds a
 * reference on the node it stands on, so the list's lock is never held
 * while the walker calls out (a probe may sleep), and a node removed
 * meanwhile stays linked, marked dead and skipped, until the last walker
 * steps off it.
 */
#ifndef KOBOLD_KLIST_H
#define KOBOLD_KLIST_H

#include <kobold/kref.h>
#include <kobold/list.h>
#include <kobold/spinlock.h>

struct klist_node;

struct klist {
	spinlock_t k_lock; /* the links, the nodes' dead flags */
	struct list_head k_list;
	/* Pin and unpin what the node is embedded in while it is listed (get_device). */
	void (*get)(struct klist_node *n);
	void (*put)(struct klist_node *n);
};

struct klist_node {
	struct klist *n_klist; /* NULL: not on a list */
	struct list_head n_node;
	struct kref n_ref; /* the list's own, one per walker on it */
	bool n_dead;	   /* klist_del'd: walkers skip it */
};

struct klist_iter {
	struct klist *i_klist;
	struct klist_node *i_cur; /* held: its reference keeps our place */
};

/* Every klist's lock is one lockdep class: none is taken inside another. */
void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *));
void klist_add_tail(struct klist_node *n, struct klist *k);
/* Off the list; unlinked now, or when the last walker leaves it. */
void klist_del(struct klist_node *n);
bool klist_node_attached(const struct klist_node *n);

void klist_iter_init(struct klist *k, struct klist_iter *i);
/* The next live node, holding it until the next call or klist_iter_exit; NULL at the end. */
struct klist_node *klist_next(struct klist_iter *i);
void klist_iter_exit(struct klist_iter *i);

#endif
