/*
 * klist.c: lists walked by reference (Linux 2.6.13's lib/klist.c, with the
 * dead-node skip of later kernels): the spinlock is held only to step from
 * one node to the next, never while the walker's callback runs.
 */
#include <kobold/klist.h>

void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *))
{
	spin_lock_init(&k->k_lock);
	INIT_LIST_HEAD(&k->k_list);
	k->get = get;
	k->put = put;
}

void klist_add_tail(struct klist_node *n, struct klist *k)
{
	unsigned long flags;

	kref_init(&n->n_ref);
	n->n_klist = k;
	n->n_dead = false;
	if (k->get)
		k->get(n);
	spin_lock_irqsave(&k->k_lock, flags);
	list_add_tail(&n->n_node, &k->k_list);
	spin_unlock_irqrestore(&k->k_lock, flags);
}

/* The last reference: unlinked (called with k_lock held). */
static void klist_release(struct kref *kref)
{
	struct klist_node *n = container_of(kref, struct klist_node, n_ref);

	list_del_init(&n->n_node);
	n->n_klist = NULL;
}

/* Drops one reference with the lock held; true if the node left the list. */
static bool klist_dec_and_del(struct klist_node *n)
{
	return kref_put(&n->n_ref, klist_release) == 1;
}

static void klist_put(struct klist *k, struct klist_node *n, bool kill)
{
	void (*put)(struct klist_node *) = k->put;
	unsigned long flags;
	bool gone;

	spin_lock_irqsave(&k->k_lock, flags);
	if (kill) {
		if (n->n_dead) { /* deleted twice: the list's reference is gone already */
			spin_unlock_irqrestore(&k->k_lock, flags);
			return;
		}
		n->n_dead = true;
	}
	gone = klist_dec_and_del(n);
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (gone && put)
		put(n);
}

void klist_del(struct klist_node *n)
{
	if (n->n_klist)
		klist_put(n->n_klist, n, true);
}

bool klist_node_attached(const struct klist_node *n)
{
	return n->n_klist != NULL && !n->n_dead;
}

void klist_iter_init(struct klist *k, struct klist_iter *i)
{
	i->i_klist = k;
	i->i_cur = NULL;
}

struct klist_node *klist_next(struct klist_iter *i)
{
	struct klist *k = i->i_klist;
	struct klist_node *last = i->i_cur, *next = NULL;
	struct list_head *pos;
	unsigned long flags;

	spin_lock_irqsave(&k->k_lock, flags);
	for (pos = last ? last->n_node.next : k->k_list.next; pos != &k->k_list; pos = pos->next) {
		struct klist_node *n = list_entry(pos, struct klist_node, n_node);

		if (!n->n_dead) {
			kref_get(&n->n_ref);
			next = n;
			break;
		}
	}
	i->i_cur = next;
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (last)
		klist_put(k, last, false);
	return next;
}

void klist_iter_exit(struct klist_iter *i)
{
	if (i->i_cur)
		klist_put(i->i_klist, i->i_cur, false);
	i->i_cur = NULL;
}
