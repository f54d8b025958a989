/* netlink_test.c: the uevent datagram, netlink_broadcast, the bounded queue and its ENOBUFS. */
#include <kobold/netlink.h>
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static const char want_dgram[] = "add@/class/x/x0\0ACTION=add\0DEVPATH=/class/x/x0\0"
				 "SUBSYSTEM=x\0SEQNUM=7\0X_VERSION=1.0";

static char *test_envp[] = { "ACTION=add", "DEVPATH=/class/x/x0", "SUBSYSTEM=x", "SEQNUM=7",
			     "X_VERSION=1.0", NULL };

static void netlink_datagram_is_head_then_each_key(struct ktest *t)
{
	char buf[256];

	KTEST_EXPECT_EQ(t, uevent_datagram_build(buf, sizeof(buf), test_envp),
			(int)sizeof(want_dgram));
	KTEST_EXPECT_TRUE(t, memcmp(buf, want_dgram, sizeof(want_dgram)) == 0);
}

static void netlink_datagram_limits_are_exact(struct ktest *t)
{
	char buf[256];
	char *no_devpath[] = { "ACTION=add", "SUBSYSTEM=x", NULL };

	KTEST_EXPECT_EQ(t, uevent_datagram_build(buf, sizeof(want_dgram), test_envp),
			(int)sizeof(want_dgram));
	KTEST_EXPECT_EQ(t, uevent_datagram_build(buf, sizeof(want_dgram) - 1, test_envp),
			-EMSGSIZE);
	KTEST_EXPECT_EQ(t, uevent_datagram_build(buf, 5, test_envp), -EMSGSIZE);
	KTEST_EXPECT_EQ(t, uevent_datagram_build(buf, sizeof(buf), no_devpath), -EINVAL);
}

static void bind_new(struct ktest *t, struct netlink_sock *s, u32 portid, u32 groups)
{
	netlink_sock_init(s, NETLINK_KOBJECT_UEVENT);
	KTEST_EXPECT_EQ(t, netlink_sock_bind(s, portid, groups), 0);
}

static void netlink_broadcast_reaches_each_subscriber(struct ktest *t)
{
	struct netlink_sock a, b, none, other;
	char buf[16];
	size_t full;

	bind_new(t, &a, 0x7001, 1);
	bind_new(t, &b, 0x7002, 1 | 2 | 0x80000000u); /* groups nothing is sent to: kept, as Linux */
	bind_new(t, &none, 0x7003, 0);
	netlink_sock_init(&other, 0);
	KTEST_EXPECT_EQ(t, netlink_sock_bind(&other, 0x7004, 1), 0);
	KTEST_EXPECT_EQ(t, b.groups, 0x80000003u);
	KTEST_EXPECT_EQ(t, netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, "one", 4), 2);
	KTEST_EXPECT_EQ(t, netlink_broadcast(NETLINK_KOBJECT_UEVENT, 3, "three", 6), 0);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&a, buf, sizeof(buf), 0, &full), 4);
	KTEST_EXPECT_STREQ(t, buf, "one");
	KTEST_EXPECT_EQ(t, netlink_dequeue(&b, buf, sizeof(buf), 0, &full), 4);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&a, buf, sizeof(buf), 0, &full), -EAGAIN);
	KTEST_EXPECT_FALSE(t, netlink_readable(&none));
	KTEST_EXPECT_FALSE(t, netlink_readable(&other));
	KTEST_EXPECT_TRUE(t, netlink_has_listeners(NETLINK_KOBJECT_UEVENT, 1));
	KTEST_EXPECT_FALSE(t, netlink_has_listeners(NETLINK_KOBJECT_UEVENT, 3));
	netlink_sock_destroy(&a);
	netlink_sock_destroy(&b);
	netlink_sock_destroy(&none);
	netlink_sock_destroy(&other);
	KTEST_EXPECT_EQ(t, netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, "gone", 5), 0);
	KTEST_EXPECT_FALSE(t, netlink_has_listeners(NETLINK_KOBJECT_UEVENT, 1));
}

static void netlink_peek_and_trunc(struct ktest *t)
{
	struct netlink_sock s;
	char buf[16];
	size_t full = 0;

	bind_new(t, &s, 0x7011, 1);
	netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, "abcdefgh", 9);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, 3, MSG_PEEK, &full), 3);
	KTEST_EXPECT_EQ(t, full, 9u);
	KTEST_EXPECT_TRUE(t, memcmp(buf, "abc", 3) == 0);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, 2, 0, &full), 2); /* the rest is lost, as UDP */
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, sizeof(buf), 0, &full), -EAGAIN);
	KTEST_EXPECT_EQ(t, s.rmem, 0u);
	netlink_sock_destroy(&s);
}

/* A reader that does not read: drops, one ENOBUFS, then what was queued, then new datagrams. */
static void netlink_overrun_gives_enobufs_once(struct ktest *t)
{
	struct netlink_sock s, fast;
	char data[200] = "first", buf[256];
	size_t full;
	int sent = 0, queued = 0, n;

	bind_new(t, &s, 0x7021, 1);
	bind_new(t, &fast, 0x7022, 1);
	s.rcvbuf = NETLINK_RCVBUF_MIN;
	while (netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, data, sizeof(data)) == 2) {
		KTEST_ASSERT_TRUE(t, ++sent < 100);
		netlink_dequeue(&fast, buf, sizeof(buf), 0, &full);
	}
	KTEST_EXPECT_TRUE(t, s.rmem > s.rcvbuf && s.rmem < s.rcvbuf + 512); /* past it once only */
	KTEST_EXPECT_EQ(t, netlink_dequeue(&fast, buf, sizeof(buf), 0, &full), 200);
	KTEST_EXPECT_TRUE(t, s.congested);
	KTEST_EXPECT_EQ(t, netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, "late", 5), 1);
	KTEST_EXPECT_EQ(t, s.drops, 2ul);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, sizeof(buf), 0, &full), -ENOBUFS);
	while ((n = (int)netlink_dequeue(&s, buf, sizeof(buf), 0, &full)) == 200)
		queued++;
	KTEST_EXPECT_EQ(t, n, -EAGAIN);
	KTEST_EXPECT_EQ(t, queued, sent);
	KTEST_EXPECT_FALSE(t, s.congested);
	KTEST_EXPECT_EQ(t, netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, "again", 6), 2);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, sizeof(buf), 0, &full), 6);
	netlink_sock_destroy(&s);
	netlink_sock_destroy(&fast);
}

static void netlink_ports_are_unique(struct ktest *t)
{
	struct netlink_sock a, b;
	u32 id;

	bind_new(t, &a, 0x7031, 1);
	netlink_sock_init(&b, NETLINK_KOBJECT_UEVENT);
	KTEST_EXPECT_EQ(t, netlink_sock_bind(&b, 0x7031, 1), -EADDRINUSE);
	KTEST_EXPECT_EQ(t, netlink_autobind_portid(NETLINK_KOBJECT_UEVENT, 0x7032), 0x7032u);
	id = netlink_autobind_portid(NETLINK_KOBJECT_UEVENT, 0x7031);
	KTEST_EXPECT_TRUE(t, (s32)id <= -4096);
	KTEST_EXPECT_EQ(t, netlink_sock_bind(&b, id, 1), 0);
	netlink_sock_destroy(&a);
	netlink_sock_destroy(&b);
}

static void kfree_kobj(struct kobject *kobj) { kfree(kobj); }

static struct kobj_type nl_ktype = { .release = kfree_kobj };
static struct kset_hotplug_ops nl_hotplug_ops = { 0 };

/* Copies s and its NUL to dst: the bytes. */
static int put0(char *dst, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(dst, s, n);
	return (int)n;
}

/* kobject_hotplug's event arrives as the datagram of its journal record. */
static void netlink_kobject_hotplug_sends_the_datagram(struct ktest *t)
{
	struct kset *ks = kzalloc(sizeof(*ks));
	struct kobject *k = kzalloc(sizeof(*k));
	char buf[512], want[512], seq[32];
	struct netlink_sock s;
	size_t full;
	int n;

	KTEST_ASSERT_TRUE(t, ks && k);
	kobject_set_name(&ks->kobj, "ktest_nlkset");
	ks->hotplug_ops = &nl_hotplug_ops;
	KTEST_ASSERT_EQ(t, kset_register(ks), 0);
	k->ktype = &nl_ktype;
	k->kset = ks;
	kobject_init(k);
	kobject_set_name(k, "nl0");
	KTEST_ASSERT_EQ(t, kobject_add(k), 0);
	bind_new(t, &s, 0x7041, 1);
	KTEST_EXPECT_EQ(t, kobject_hotplug(k, KOBJ_CHANGE), 0);
	n = 0;
	n += put0(want + n, "change@/ktest_nlkset/nl0");
	n += put0(want + n, "ACTION=change");
	n += put0(want + n, "DEVPATH=/ktest_nlkset/nl0");
	n += put0(want + n, "SUBSYSTEM=ktest_nlkset");
	scnprintf(seq, sizeof(seq), "SEQNUM=%llu", (unsigned long long)uevent_seqnum);
	n += put0(want + n, seq);
	KTEST_EXPECT_EQ(t, netlink_dequeue(&s, buf, sizeof(buf), 0, &full), n);
	KTEST_EXPECT_TRUE(t, memcmp(buf, want, (size_t)n) == 0);
	netlink_sock_destroy(&s);
	kobject_del(k);
	kobject_put(k);
	kset_unregister(ks);
	kfree(ks);
}

static const struct ktest_case netlink_cases[] = {
	KTEST_CASE(netlink_datagram_is_head_then_each_key),
	KTEST_CASE(netlink_datagram_limits_are_exact),
	KTEST_CASE(netlink_broadcast_reaches_each_subscriber),
	KTEST_CASE(netlink_peek_and_trunc),
	KTEST_CASE(netlink_overrun_gives_enobufs_once),
	KTEST_CASE(netlink_ports_are_unique),
	KTEST_CASE(netlink_kobject_hotplug_sends_the_datagram),
	KTEST_END,
};

static const struct ktest_suite netlink_suite = {
	.name = "netlink",
	.cases = netlink_cases,
};
KTEST_SUITE(netlink_suite);
