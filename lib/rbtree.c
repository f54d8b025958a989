/*
 * rbtree.c: red-black tree rebalancing (after Cormen et al., "Introduction to
 * Algorithms", ch. 13), with NULL children standing for the black leaves.
 */
#include <kobold/rbtree.h>

static bool is_red(const struct rb_node *n)
{
	return n && n->red;
}

static void replace_child(struct rb_root *root, struct rb_node *parent,
			  struct rb_node *old, struct rb_node *new)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static void rotate_left(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	replace_child(root, x->parent, x, y);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	replace_child(root, x->parent, x, y);
	y->right = x;
	x->parent = y;
}

void rb_insert_color(struct rb_node *z, struct rb_root *root)
{
	while (is_red(z->parent)) {
		struct rb_node *p = z->parent, *g = p->parent; /* p red: not the root */
		struct rb_node *u = (p == g->left) ? g->right : g->left;

		if (is_red(u)) { /* recolour and move the problem up */
			p->red = u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (p == g->left && z == p->right) {
			rotate_left(root, p);
			z = p;
		} else if (p == g->right && z == p->left) {
			rotate_right(root, p);
			z = p;
		}
		z->parent->red = false;
		g->red = true;
		if (z == z->parent->left)
			rotate_right(root, g);
		else
			rotate_left(root, g);
	}
	root->rb_node->red = false;
}

/* Restore the black height after a black node left from above x (x may be NULL). */
static void erase_fixup(struct rb_root *root, struct rb_node *x, struct rb_node *p)
{
	while (x != root->rb_node && !is_red(x)) {
		bool left = (x == p->left);
		struct rb_node *w = left ? p->right : p->left;

		if (is_red(w)) {
			w->red = false;
			p->red = true;
			left ? rotate_left(root, p) : rotate_right(root, p);
			w = left ? p->right : p->left;
		}
		if (!is_red(w->left) && !is_red(w->right)) {
			w->red = true;
			x = p;
			p = x->parent;
			continue;
		}
		if (left && !is_red(w->right)) {
			w->left->red = false;
			w->red = true;
			rotate_right(root, w);
			w = p->right;
		} else if (!left && !is_red(w->left)) {
			w->right->red = false;
			w->red = true;
			rotate_left(root, w);
			w = p->left;
		}
		w->red = p->red;
		p->red = false;
		if (left) {
			w->right->red = false;
			rotate_left(root, p);
		} else {
			w->left->red = false;
			rotate_right(root, p);
		}
		x = root->rb_node;
	}
	if (x)
		x->red = false;
}

static void transplant(struct rb_root *root, struct rb_node *u, struct rb_node *v)
{
	replace_child(root, u->parent, u, v);
	if (v)
		v->parent = u->parent;
}

void rb_erase(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *x, *xp, *y;
	bool removed_red = z->red;

	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		xp = z->parent;
		transplant(root, z, x);
	} else {
		y = z->right; /* z's successor takes its place */
		while (y->left)
			y = y->left;
		removed_red = y->red;
		x = y->right;
		xp = y;
		if (y->parent != z) {
			xp = y->parent;
			transplant(root, y, y->right);
			y->right = z->right;
			y->right->parent = y;
		}
		transplant(root, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	if (!removed_red)
		erase_fixup(root, x, xp);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->right)
		n = n->right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct rb_node *)n;
	}
	while (n->parent && n == n->parent->right)
		n = n->parent;
	return n->parent;
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (struct rb_node *)n;
	}
	while (n->parent && n == n->parent->left)
		n = n->parent;
	return n->parent;
}
