/*
 * rbtree.h: red-black trees, the sorted O(log n) index behind each sysfs
 * directory. As in Linux, the caller searches and links a new node itself
 * (it knows how to compare), then asks rb_insert_color() to rebalance.
 */
#ifndef KOBOLD_RBTREE_H
#define KOBOLD_RBTREE_H

#include <kobold/types.h>

struct rb_node {
	struct rb_node *parent;
	struct rb_node *left, *right;
	bool red;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT ((struct rb_root){ NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/* Hang node at *link (a NULL child slot of parent) before rb_insert_color. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = true;
	*link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order walk: smallest first. NULL at the end. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

#endif
