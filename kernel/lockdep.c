/*
 * lockdep.c: the lock validator (Linux 2.6.18's kernel/lockdep.c, cut down
 * to lock order and hard interrupt usage): classes by key, a graph of the
 * orders seen, a check for a cycle each time a new order is added, each
 * class's hardirq usage bits, and reports in Linux's words. Kobold has no
 * softirqs, so no softirq bits; see docs/differences.md for what else is
 * left out. Portable C: the unit tests drive it on the host.
 */
#include <kobold/irqflags.h>
#include <kobold/kallsyms.h>
#include <kobold/lockdep.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/proc_fs.h>
#include <kobold/string.h>
#ifndef KOBOLD_HOST
#include <kobold/param.h>
#endif

#define MAX_LOCKDEP_KEYS 512
#define MAX_LOCKDEP_ENTRIES 4096

/* How a class has been used (2.6.18's lock_usage_bit, the hardirq ones). */
enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,	    /* taken in a hard interrupt handler */
	LOCK_ENABLED_HARDIRQS,	    /* taken with hard interrupts on */
	LOCK_USED_IN_HARDIRQ_READ,  /* a reader's hold, in a handler */
	LOCK_ENABLED_HARDIRQS_READ, /* a reader's hold, interrupts on */
	LOCK_USAGE_STATES
};

static const char *const usage_str[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ] = "in-hardirq-W",
	[LOCK_ENABLED_HARDIRQS] = "hardirq-on-W",
	[LOCK_USED_IN_HARDIRQ_READ] = "in-hardirq-R",
	[LOCK_ENABLED_HARDIRQS_READ] = "hardirq-on-R",
};

/*
 * The usages that may not meet a new one, as 2.6.18's mark_lock: an
 * interrupt can come while the lock is held with interrupts on and the
 * handler then spins on it. Readers in a handler and readers with
 * interrupts on do not exclude each other.
 */
static const unsigned int usage_conflicts[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ] = 1 << LOCK_ENABLED_HARDIRQS | 1 << LOCK_ENABLED_HARDIRQS_READ,
	[LOCK_ENABLED_HARDIRQS] = 1 << LOCK_USED_IN_HARDIRQ | 1 << LOCK_USED_IN_HARDIRQ_READ,
	[LOCK_USED_IN_HARDIRQ_READ] = 1 << LOCK_ENABLED_HARDIRQS,
	[LOCK_ENABLED_HARDIRQS_READ] = 1 << LOCK_USED_IN_HARDIRQ,
};

struct lock_class {
	const struct lock_class_key *key;
	const char *name;
	unsigned int subclass;			   /* printed "name/N" when nonzero */
	int after;				   /* first of the orders "this before X", -1: none */
	unsigned int bfs_gen;			   /* this search has seen it */
	int bfs_parent;				   /* the order by which the search reached it */
	unsigned int usage_mask;		   /* 1 << enum lock_usage_bit, each usage seen */
	unsigned long usage_ip[LOCK_USAGE_STATES]; /* where each was first seen */
};

/* One recorded order: @class was taken while @prev was held (prev before class). */
struct lock_list {
	struct lock_class *prev, *class;
	unsigned long prev_ip, ip; /* where each was taken, the first time */
	int next;		   /* the next order of @prev, -1: none */
};

bool debug_locks = true;
#ifndef KOBOLD_HOST
core_param(debug_locks, debug_locks, bool, "lock debugging: lockdep and the spinlock checks (0: off)");
#endif
static struct lock_class classes[MAX_LOCKDEP_KEYS];
static unsigned int nr_classes;
static struct lock_list entries[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_entries;
static unsigned int bfs_gen;
static int bfs_queue[MAX_LOCKDEP_KEYS];
static volatile int graph_lock;

/*
 * Interrupts off without the interrupt lock (kernel/irq_lock.c): lockdep
 * runs inside spin_lock, and a spinlock is never held while waiting for
 * the interrupt lock.
 */
static unsigned long graph_lock_irqsave(void)
{
	unsigned long flags = raw_local_irq_save();

	while (__sync_lock_test_and_set(&graph_lock, 1))
		;
	return flags;
}

static void graph_unlock_irqrestore(unsigned long flags)
{
	__sync_lock_release(&graph_lock);
	raw_local_irq_restore(flags);
}

/* The first report turns checking off: the graph may be wrong from there on. */
static void debug_locks_off(void)
{
	debug_locks = false;
}

static struct lockdep_task default_task;

__attribute__((weak)) struct lockdep_task *lockdep_current(void) { return &default_task; }
__attribute__((weak)) const char *lockdep_task_name(const struct lockdep_task *t) { return "kernel"; }
__attribute__((weak)) int lockdep_task_pid(const struct lockdep_task *t) { return 0; }

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key)
{
	map->key = key;
	map->name = name;
	map->class = NULL;
}

/* A static lock's key is its own address (Linux's rule for static objects). */
static const struct lock_class_key *map_key(const struct lockdep_map *map)
{
	return map->key ? map->key : (const struct lock_class_key *)map;
}

static struct lock_class *register_class(struct lockdep_map *map, unsigned int subclass)
{
	const struct lock_class_key *key = map_key(map);

	for (unsigned int i = 0; i < nr_classes; i++)
		if (classes[i].key == key && classes[i].subclass == subclass)
			return &classes[i];
	if (nr_classes == MAX_LOCKDEP_KEYS) {
		debug_locks_off();
		pr_err("BUG: MAX_LOCKDEP_KEYS too low!\n");
		pr_err("turning off the locking correctness validator.\n");
		return NULL;
	}
	classes[nr_classes] = (struct lock_class){
		.key = key, .name = map->name, .subclass = subclass, .after = -1, .bfs_parent = -1
	};
	return &classes[nr_classes++];
}

static struct lock_class *find_class(struct lockdep_map *map, unsigned int subclass)
{
	if (subclass >= MAX_LOCKDEP_SUBCLASSES) {
		debug_locks_off();
		pr_err("BUG: looking up invalid subclass: %u\n", subclass);
		return NULL;
	}
	if (subclass)
		return register_class(map, subclass);
	if (!map->class)
		map->class = register_class(map, 0);
	return map->class;
}

#define KSYM_LEN 64

/* "name+0x12/0x40" for a code address, or the number when there is no symbol. */
static const char *sprint_ip(char *buf, unsigned long ip)
{
	const char *name;
	u32 off, size;

	if (ksym_lookup((u32)ip, &name, &off, &size))
		scnprintf(buf, KSYM_LEN, "%s+%#x/%#x", name, off, size);
	else
		scnprintf(buf, KSYM_LEN, "%#lx", ip);
	return buf;
}

/* "(name)" or "(name/N)" for a nested subclass, as Linux prints a class. */
static const char *class_name(char *buf, size_t len, const struct lock_class *c)
{
	if (c->subclass)
		scnprintf(buf, len, "%s/%u", c->name, c->subclass);
	else
		scnprintf(buf, len, "%s", c->name);
	return buf;
}

static void print_lock(const char *prefix, const struct lock_class *c, unsigned long ip)
{
	char sym[KSYM_LEN], name[KSYM_LEN];

	printk(KERN_WARNING "%s(%s), at: %s\n", prefix, class_name(name, sizeof(name), c),
	       sprint_ip(sym, ip));
}

void lockdep_print_held_locks(const struct lockdep_task *task)
{
	if (!task->depth) {
		printk(KERN_WARNING "no locks held by %s/%d.\n", lockdep_task_name(task),
		       lockdep_task_pid(task));
		return;
	}
	printk(KERN_WARNING "%d lock%s held by %s/%d:\n", task->depth, task->depth == 1 ? "" : "s",
	       lockdep_task_name(task), lockdep_task_pid(task));
	for (int i = 0; i < task->depth; i++) {
		char prefix[16];

		scnprintf(prefix, sizeof(prefix), " #%d: ", i);
		print_lock(prefix, task->held[i].class, task->held[i].ip);
	}
}

static bool has_order(const struct lock_class *prev, const struct lock_class *next)
{
	for (int e = prev->after; e >= 0; e = entries[e].next)
		if (entries[e].class == next)
			return true;
	return false;
}

/* Breadth first from @from along recorded orders: the index of @target's class, or -1. */
static int find_path(struct lock_class *from, struct lock_class *target)
{
	unsigned int head = 0, tail = 0;

	bfs_gen++;
	from->bfs_gen = bfs_gen;
	from->bfs_parent = -1;
	bfs_queue[tail++] = (int)(from - classes);
	while (head < tail) {
		struct lock_class *c = &classes[bfs_queue[head++]];

		if (c == target)
			return (int)(c - classes);
		for (int e = c->after; e >= 0; e = entries[e].next) {
			struct lock_class *n = entries[e].class;

			if (n->bfs_gen == bfs_gen)
				continue;
			n->bfs_gen = bfs_gen;
			n->bfs_parent = e;
			bfs_queue[tail++] = (int)(n - classes);
		}
	}
	return -1;
}

static void print_scenario(const struct lock_class *held, const struct lock_class *want)
{
	char h[KSYM_LEN], w[KSYM_LEN];

	class_name(h, sizeof(h), held);
	class_name(w, sizeof(w), want);
	printk(KERN_WARNING " Possible unsafe locking scenario:\n\n");
	printk(KERN_WARNING "       CPU0                    CPU1\n");
	printk(KERN_WARNING "       ----                    ----\n");
	printk(KERN_WARNING "  lock(%s);\n", h);
	printk(KERN_WARNING "                               lock(%s);\n", w);
	printk(KERN_WARNING "                               lock(%s);\n", h);
	printk(KERN_WARNING "  lock(%s);\n", w);
	printk(KERN_WARNING "\n *** DEADLOCK ***\n\n");
}

/* The chain found by find_path(next ... prev), newest order first, as Linux prints it. */
static void print_chain(struct lock_class *next, struct lock_class *prev)
{
	char name0[KSYM_LEN];
	int depth = 0;

	for (struct lock_class *c = prev; c != next; c = entries[c->bfs_parent].prev)
		depth++;
	printk(KERN_WARNING "\nthe existing dependency chain (in reverse order) is:\n");
	for (struct lock_class *c = prev; c != next; c = entries[c->bfs_parent].prev) {
		const struct lock_list *e = &entries[c->bfs_parent];
		char sym[KSYM_LEN], name[KSYM_LEN];

		printk(KERN_WARNING "\n-> #%d (%s):\n", depth--, class_name(name, sizeof(name), c));
		printk(KERN_WARNING "       taken at %s\n", sprint_ip(sym, e->ip));
		printk(KERN_WARNING "       while holding (%s), taken at %s\n",
		       class_name(name, sizeof(name), e->prev), sprint_ip(sym, e->prev_ip));
	}
	printk(KERN_WARNING "\n-> #0 (%s):\n", class_name(name0, sizeof(name0), next));
}

/* A report's head: the title between rules of its length, the lock wanted and the lock held. */
static void print_head(const char *title, const struct lockdep_task *task,
		       const struct lock_class *next, unsigned long ip, const struct held_lock *held)
{
	char rule[80];
	size_t n = strlen("WARNING: ") + strlen(title);

	debug_locks_off();
	n = n < sizeof(rule) - 1 ? n : sizeof(rule) - 1;
	memset(rule, '=', n);
	rule[n] = '\0';
	printk(KERN_WARNING "\n%s\n", rule);
	printk(KERN_WARNING "WARNING: %s\n", title);
	memset(rule, '-', n);
	printk(KERN_WARNING "%s\n", rule);
	printk(KERN_WARNING "%s/%d is trying to acquire lock:\n", lockdep_task_name(task),
	       lockdep_task_pid(task));
	print_lock(" ", next, ip);
	printk(KERN_WARNING "\nbut task is already holding lock:\n");
	print_lock(" ", held->class, held->ip);
}

static void print_circular_bug(const struct lockdep_task *task, const struct held_lock *held,
			       struct lock_class *next, unsigned long ip)
{
	print_head("possible circular locking dependency detected", task, next, ip, held);
	printk(KERN_WARNING "\nwhich lock already depends on the new lock.\n\n");
	print_chain(next, held->class);
	printk(KERN_WARNING "\nother info that might help us debug this:\n\n");
	print_scenario(held->class, next);
	lockdep_print_held_locks(task);
	dump_stack();
}

static void print_recursion_bug(const struct lockdep_task *task, const struct held_lock *held,
				struct lock_class *next, unsigned long ip)
{
	print_head("possible recursive locking detected", task, next, ip, held);
	printk(KERN_WARNING "\n *** DEADLOCK ***\n\n");
	lockdep_print_held_locks(task);
	dump_stack();
}

/* Records "prev before next" unless known; false if that closes a cycle (reported). */
static bool add_order(const struct lockdep_task *task, const struct held_lock *prev,
		      struct lock_class *next, unsigned long ip)
{
	struct lock_list *e;

	if (has_order(prev->class, next))
		return true;
	if (find_path(next, prev->class) >= 0) {
		print_circular_bug(task, prev, next, ip);
		return false;
	}
	if (nr_entries == MAX_LOCKDEP_ENTRIES) {
		debug_locks_off();
		pr_err("BUG: MAX_LOCKDEP_ENTRIES too low!\n");
		return false;
	}
	e = &entries[nr_entries];
	*e = (struct lock_list){ prev->class, next, prev->ip, ip, prev->class->after };
	prev->class->after = (int)nr_entries++;
	return true;
}

/* Two readers that may nest (rwlock_t's) of one lock are no recursion. */
static bool recursive_read(const struct held_lock *h, int read)
{
	return read == 2 && h->read;
}

/*
 * Checks and records the new lock against the innermost held one of the
 * same context (the rest follow by transitivity; a trylock held above it
 * lets the walk go one further). An interrupt handler's locks are ordered
 * only among themselves, as Linux's irq_context keeps them.
 */
static void check_new_lock(struct lockdep_task *task, struct lock_class *class, bool trylock,
			   int read, unsigned long ip)
{
	bool irq = in_irq() != 0;

	for (int i = task->depth - 1; i >= 0; i--) {
		const struct held_lock *h = &task->held[i];

		if (h->class == class && !trylock && !recursive_read(h, read)) {
			print_recursion_bug(task, h, class, ip);
			return;
		}
	}
	for (int i = task->depth - 1; i >= 0 && !trylock; i--) {
		if (task->held[i].irq_context != irq || task->held[i].class == class)
			break; /* another context, or a reader nesting in its own lock */
		if (!add_order(task, &task->held[i], class, ip))
			return;
		if (!task->held[i].trylock)
			break;
	}
}

static void print_usage_bug(const struct lockdep_task *task, const struct held_lock *this,
			    enum lock_usage_bit prev_bit, enum lock_usage_bit new_bit)
{
	char sym[KSYM_LEN];
	int hardirq = in_irq() ? 1 : 0;

	debug_locks_off();
	printk(KERN_WARNING "\n================================\n");
	printk(KERN_WARNING "WARNING: inconsistent lock state\n");
	printk(KERN_WARNING "--------------------------------\n");
	printk(KERN_WARNING "inconsistent {%s} -> {%s} usage.\n", usage_str[prev_bit],
	       usage_str[new_bit]);
	/* SC and SE (softirq context, softirqs on) are 0: Kobold has no softirqs. */
	printk(KERN_WARNING "%s/%d [HC%d[%d]:SC0[0]:HE%d:SE0] takes:\n", lockdep_task_name(task),
	       lockdep_task_pid(task), hardirq, (int)(in_irq() / HARDIRQ_OFFSET),
	       this->hardirqs_off ? 0 : 1);
	print_lock(" ", this->class, this->ip);
	printk(KERN_WARNING "{%s} state was registered at:\n", usage_str[prev_bit]);
	printk(KERN_WARNING "  %s\n", sprint_ip(sym, this->class->usage_ip[prev_bit]));
	printk(KERN_WARNING "\nother info that might help us debug this:\n");
	lockdep_print_held_locks(task);
	printk(KERN_WARNING "\nstack backtrace:\n");
	dump_stack();
}

/* Records a usage of @this's class; false if it meets a usage it may not (reported). */
static bool mark_lock(const struct lockdep_task *task, const struct held_lock *this,
		      enum lock_usage_bit new_bit)
{
	struct lock_class *class = this->class;
	unsigned int bad;

	if (class->usage_mask & (1u << new_bit))
		return true;
	class->usage_mask |= 1u << new_bit;
	class->usage_ip[new_bit] = this->ip;
	bad = class->usage_mask & usage_conflicts[new_bit];
	if (!bad)
		return true;
	print_usage_bug(task, this, (enum lock_usage_bit)__builtin_ctz(bad), new_bit);
	return false;
}

/*
 * The usages of an acquisition, as 2.6.18's __lock_acquire marks them: in a
 * handler (a trylock never waits, so it does not count there), and with
 * interrupts on (a trylock too: the handler may spin on it while held).
 */
static bool mark_irqflags(const struct lockdep_task *task, const struct held_lock *hlock)
{
	if (hlock->irq_context && !hlock->trylock &&
	    !mark_lock(task, hlock, hlock->read ? LOCK_USED_IN_HARDIRQ_READ : LOCK_USED_IN_HARDIRQ))
		return false;
	if (!hlock->hardirqs_off &&
	    !mark_lock(task, hlock, hlock->read ? LOCK_ENABLED_HARDIRQS_READ : LOCK_ENABLED_HARDIRQS))
		return false;
	return true;
}

static void __lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock, int read,
			   bool hardirqs_off, unsigned long ip)
{
	struct lockdep_task *task = lockdep_current();
	struct held_lock hlock;
	unsigned long flags;

	if (!debug_locks)
		return;
	flags = graph_lock_irqsave();
	hlock = (struct held_lock){ find_class(map, subclass), map, ip, trylock, read != 0,
				    in_irq() != 0, hardirqs_off };
	if (hlock.class && debug_locks && mark_irqflags(task, &hlock))
		check_new_lock(task, hlock.class, trylock, read, ip);
	if (task->depth == MAX_LOCK_DEPTH) {
		debug_locks_off();
		pr_err("BUG: MAX_LOCK_DEPTH too low!\n");
	} else if (hlock.class) {
		task->held[task->depth++] = hlock;
	}
	graph_unlock_irqrestore(flags);
}

void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock, int read,
		  unsigned long ip)
{
	__lock_acquire(map, subclass, trylock, read, irqs_disabled(), ip);
}

void lock_acquire_flags(struct lockdep_map *map, unsigned int subclass, bool trylock, int read,
			unsigned long flags, unsigned long ip)
{
	__lock_acquire(map, subclass, trylock, read, irqs_disabled_flags(flags), ip);
}

bool lock_is_held(const struct lockdep_map *map)
{
	const struct lockdep_task *task = lockdep_current();

	for (int i = task->depth - 1; i >= 0; i--)
		if (task->held[i].instance == map)
			return true;
	return false;
}

static void print_unlock_imbalance_bug(const struct lockdep_task *task,
				       const struct lockdep_map *map, unsigned long ip)
{
	char sym[KSYM_LEN];

	debug_locks_off();
	printk(KERN_WARNING "\n=====================================\n");
	printk(KERN_WARNING "WARNING: bad unlock balance detected!\n");
	printk(KERN_WARNING "-------------------------------------\n");
	printk(KERN_WARNING "%s/%d is trying to release lock (%s) at:\n", lockdep_task_name(task),
	       lockdep_task_pid(task), map->name);
	printk(KERN_WARNING "%s\n", sprint_ip(sym, ip));
	printk(KERN_WARNING "but there are no more locks to release!\n\n");
	lockdep_print_held_locks(task);
	dump_stack();
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct lockdep_task *task = lockdep_current();
	unsigned long flags;
	int i;

	if (!debug_locks)
		return;
	flags = graph_lock_irqsave();
	for (i = task->depth - 1; i >= 0 && task->held[i].instance != map; i--)
		;
	if (i < 0) {
		print_unlock_imbalance_bug(task, map, ip);
	} else {
		memmove(&task->held[i], &task->held[i + 1],
			(size_t)(task->depth - i - 1) * sizeof(task->held[0]));
		task->depth--;
	}
	graph_unlock_irqrestore(flags);
}

unsigned int lockdep_nr_classes(void) { return nr_classes; }
unsigned int lockdep_nr_dependencies(void) { return nr_entries; }

/* /proc/lockdep_stats, the lines of Linux's (2.6.18) that Kobold keeps. */
size_t proc_show_lockdep_stats(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 " lock-classes:                         %5u [max: %u]\n"
			 " direct dependencies:                  %5u [max: %u]\n"
			 " debug_locks:                          %5d\n",
			 nr_classes, MAX_LOCKDEP_KEYS, nr_entries, MAX_LOCKDEP_ENTRIES,
			 debug_locks ? 1 : 0);
}

void lockdep_reset(void)
{
	lockdep_current()->depth = 0;
	debug_locks = true;
}
