/* rbtree_test.c: the red-black tree stays sorted and balanced through inserts and erases. */
#include <kobold/ktest.h>
#include <kobold/rbtree.h>
#include <kobold/slab.h>
#include <kobold/string.h>

struct item {
	struct rb_node node;
	unsigned int key;
};

static void insert(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < rb_entry(parent, struct item, node)->key ? &parent->left
									  : &parent->right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color(&it->node, root);
}

/* Black height of n's subtree, or -1 if a rule is broken below n. */
static int check(const struct rb_node *n, const struct rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent || (n->red && parent && parent->red))
		return -1;
	l = check(n->left, n);
	r = check(n->right, n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !n->red;
}

static bool sorted(const struct rb_root *root, int expect)
{
	const struct rb_node *n;
	unsigned int last = 0;
	int count = 0;

	for (n = rb_first(root); n; n = rb_next(n), count++) {
		unsigned int k = rb_entry(n, struct item, node)->key;

		if (count && k < last)
			return false;
		last = k;
	}
	return count == expect;
}

static unsigned int next_rand(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffff;
}

static void rbtree_random_inserts_and_erases(struct ktest *t)
{
	enum { N = 2000 };
	struct item *items = kzalloc(N * sizeof(*items));
	struct rb_root root = RB_ROOT;
	unsigned int seed = 42;
	int i, live = 0;

	KTEST_ASSERT_TRUE(t, items);
	for (i = 0; i < N; i++) {
		items[i].key = next_rand(&seed);
		insert(&root, &items[i]);
		live++;
	}
	KTEST_EXPECT_TRUE(t, check(root.rb_node, NULL) > 0);
	KTEST_EXPECT_TRUE(t, sorted(&root, live));
	for (i = 0; i < N; i += 2) { /* erase every other one, then check */
		rb_erase(&items[i].node, &root);
		live--;
	}
	KTEST_EXPECT_TRUE(t, check(root.rb_node, NULL) > 0);
	KTEST_EXPECT_TRUE(t, sorted(&root, live));
	for (i = 1; i < N; i += 2)
		rb_erase(&items[i].node, &root);
	KTEST_EXPECT_TRUE(t, root.rb_node == NULL);
	kfree(items);
}

static void rbtree_walks_both_ways(struct ktest *t)
{
	struct item it[5];
	struct rb_root root = RB_ROOT;
	struct rb_node *n;
	unsigned int i, expect = 4;

	for (i = 0; i < 5; i++) {
		it[i].key = (i * 3) % 5; /* 0 3 1 4 2 */
		insert(&root, &it[i]);
	}
	for (n = rb_last(&root); n; n = rb_prev(n))
		KTEST_EXPECT_EQ(t, rb_entry(n, struct item, node)->key, expect--);
	KTEST_EXPECT_EQ(t, rb_entry(rb_first(&root), struct item, node)->key, 0);
}

static const struct ktest_case rbtree_cases[] = {
	KTEST_CASE(rbtree_random_inserts_and_erases),
	KTEST_CASE(rbtree_walks_both_ways),
	KTEST_END,
};

static const struct ktest_suite rbtree_suite = {
	.name = "rbtree",
	.cases = rbtree_cases,
};
KTEST_SUITE(rbtree_suite);
