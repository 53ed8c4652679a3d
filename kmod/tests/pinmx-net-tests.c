// SPDX-License-Identifier: GPL-2.0
/*
 * pinmx networking tests with two processes: eager and rendezvous/pull
 * transfers checked byte for byte over lo and over a veth pair joining two
 * network namespaces (optionally with netem loss), forced overlap misses,
 * a peer killed in the middle of a pull, every pull refusal, refusals
 * that end when the memory is fixed, and a server whose process exited.
 *
 * Each process opens its own endpoint, attaches and binds in its own
 * network namespace, and tells the other its address over a socketpair.
 * The sender of a message is the pull server: PULLs are answered by the
 * module in softirq while the sender waits for the NOTIFY.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pinmx_test.h"

#define MiB		(1024UL * 1024)
#define EAGER_MAX	32768U		/* rendezvous threshold */
#define FRAG_BYTES	1444U		/* MEDIUM_FRAG payload at 1500 */
#define NS_A		"pmxa"
#define NS_B		"pmxb"

/* This process's endpoint and the peer's address. */
struct node {
	int fd;
	uint8_t index;
	uint32_t session;
	uint8_t mac[6];
	struct pinmx_ring_ctl *ring;
	uint8_t peer_mac[6];
	uint8_t peer_index;
	uint32_t peer_session;
	uint32_t pull_flags;
};

/* What a process tells its peer about its endpoint. */
struct hello_msg {
	uint8_t mac[6];
	uint8_t index;
	uint8_t pad;
	uint32_t session;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static int run(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int setup_veth(void)
{
	run("ip netns del " NS_A " 2>/dev/null; ip netns del " NS_B " 2>/dev/null");
	return run("ip netns add " NS_A " && ip netns add " NS_B " && "
		   "ip link add vpa netns " NS_A " type veth peer name vpb netns " NS_B " && "
		   "ip -n " NS_A " link set vpa up && ip -n " NS_B " link set vpb up && "
		   "ip -n " NS_A " link set lo up && ip -n " NS_B " link set lo up");
}

static void teardown_veth(void)
{
	run("ip netns del " NS_A " 2>/dev/null; ip netns del " NS_B " 2>/dev/null");
}

static int enter_netns(const char *name)
{
	char path[64];
	int fd, r;

	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = setns(fd, CLONE_NEWNET);
	close(fd);
	return r;
}

/* Open, attach @ifname, bind @index, map the ring. */
static int node_bind(struct node *n, const char *ifname, uint8_t index)
{
	struct pinmx_attach at = { 0 };
	struct pinmx_bind b = { 0 };

	snprintf(at.ifname, sizeof(at.ifname), "%s", ifname);
	snprintf(b.ifname, sizeof(b.ifname), "%s", ifname);
	b.index = index;
	n->fd = pmx_open();
	CHECK(n->fd >= 0, "open: %s", strerror(errno));
	CHECK_OK(ioctl(n->fd, PINMX_IOC_ATTACH, &at));
	CHECK_OK(ioctl(n->fd, PINMX_IOC_BIND, &b));
	CHECK(b.mtu >= 1500, "%s mtu %u", ifname, b.mtu);
	n->index = index;
	n->session = b.session;
	memcpy(n->mac, b.mac, 6);
	n->ring = mmap(NULL, PINMX_RING_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED, n->fd, 0);
	CHECK(n->ring != MAP_FAILED, "mmap ring: %s", strerror(errno));
	return 0;
}

/* Make @peer the peer of @n. */
static void node_link(struct node *n, const struct node *peer)
{
	memcpy(n->peer_mac, peer->mac, 6);
	n->peer_index = peer->index;
	n->peer_session = peer->session;
}

/* node_bind(), then swap addresses with the peer process on @sock. */
static int node_open(struct node *n, const char *ifname, uint8_t index,
		     int sock)
{
	struct hello_msg me = { 0 }, peer;

	if (node_bind(n, ifname, index))
		return 1;
	memcpy(me.mac, n->mac, 6);
	me.index = index;
	me.session = n->session;
	CHECK(write(sock, &me, sizeof(me)) == sizeof(me), "hello write");
	CHECK(read(sock, &peer, sizeof(peer)) == sizeof(peer), "hello read");
	memcpy(n->peer_mac, peer.mac, 6);
	n->peer_index = peer.index;
	n->peer_session = peer.session;
	return 0;
}

/* Next event, waiting up to @timeout_ms with PINMX_IOC_WAIT; NULL if none. */
static const struct pinmx_event *node_next(struct node *n, int timeout_ms)
{
	struct pinmx_wait w = { .timeout_ns = timeout_ms * 1000000ULL };
	uint32_t cons = n->ring->consumer;

	if (__atomic_load_n(&n->ring->producer, __ATOMIC_ACQUIRE) == cons &&
	    (ioctl(n->fd, PINMX_IOC_WAIT, &w) || !w.ready))
		return NULL;
	return (const void *)((char *)n->ring + PINMX_RING_CTL_BYTES +
			      (cons % PINMX_RING_SLOTS) * PINMX_RING_SLOT_BYTES);
}

/* The ring mapping holds the file: unmap it so close releases the endpoint. */
static void node_close(struct node *n)
{
	if (n->ring && n->ring != MAP_FAILED)
		munmap(n->ring, PINMX_RING_BYTES);
	if (n->fd > 0)
		close(n->fd);
}

static void node_consume(struct node *n)
{
	__atomic_store_n(&n->ring->consumer, n->ring->consumer + 1,
			 __ATOMIC_RELEASE);
}

static void header(const struct node *n, uint8_t *h, uint8_t kind,
		   uint32_t plen)
{
	memset(h, 0, 72);
	h[0] = kind;
	h[1] = PINMX_MXOE_VERSION;
	h[4] = n->peer_index;
	h[5] = n->index;
	put32(h + 8, n->peer_session);
	put32(h + 12, n->session);
	put32(h + 24, plen);
}

static int node_send(const struct node *n, const uint8_t *h, uint32_t hlen,
		     const void *payload, uint32_t plen)
{
	struct pinmx_send req = {
		.header = (uintptr_t)h, .header_len = hlen,
		.payload = (uintptr_t)payload, .payload_len = plen,
	};

	memcpy(req.dst_mac, n->peer_mac, 6);
	return ioctl(n->fd, PINMX_IOC_SEND, &req);
}

/* Eager: TINY for 0 bytes, else MEDIUM_FRAG fragments. */
static int send_eager(const struct node *n, const uint8_t *buf, uint32_t len)
{
	uint16_t count = len ? (len + FRAG_BYTES - 1) / FRAG_BYTES : 0;
	uint8_t h[72];
	uint16_t i;

	if (!len) {
		header(n, h, PINMX_KIND_TINY, 0);
		return node_send(n, h, 48, NULL, 0);
	}
	for (i = 0; i < count; i++) {
		uint32_t off = i * FRAG_BYTES;
		uint32_t plen = len - off < FRAG_BYTES ? len - off : FRAG_BYTES;

		header(n, h, PINMX_KIND_MEDIUM_FRAG, plen);
		put32(h + 40, len);
		put32(h + 44, off);
		put16(h + 48, i);
		put16(h + 50, count);
		if (node_send(n, h, 56, buf + off, plen))
			return -1;
	}
	return 0;
}

static int send_notify(const struct node *n, uint32_t handle, uint32_t status,
		       uint64_t bytes)
{
	uint8_t h[72];

	header(n, h, PINMX_KIND_NOTIFY, 0);
	put32(h + 32, handle);
	put32(h + 36, status);
	put64(h + 40, bytes);
	return node_send(n, h, 48, NULL, 0);
}

/* Waits for a frame event of @kind, skipping none; returns its frame. */
static const uint8_t *expect_frame(struct node *n, uint8_t kind, int ms)
{
	const struct pinmx_event *ev = node_next(n, ms);
	const uint8_t *f;

	if (!ev) {
		printf("# no event (waiting for kind %u)\n", kind);
		return NULL;
	}
	f = (const uint8_t *)(ev + 1);
	if (ev->type != PINMX_EVENT_FRAME || f[0] != kind) {
		printf("# event type %u kind %u, expected frame kind %u\n",
		       ev->type, f[0], kind);
		return NULL;
	}
	return f;
}

/* A transfer test's sizes and whether control frames may be lost. */
struct xfer_cfg {
	uint64_t max;
	bool lossy;	/* netem: pulls only, RNDV resent until NOTIFY */
};

static int ms_left(uint64_t deadline)
{
	uint64_t now = now_ns();

	return now >= deadline ? 0 : (int)((deadline - now) / 1000000) + 1;
}

/*
 * Waits for the NOTIFY of @seed until @deadline; stale NOTIFYs (answers to
 * resent RNDVs of earlier messages) are skipped. 1: none came; -1: error.
 */
static int wait_notify(struct node *n, uint32_t seed, uint64_t len,
		       uint64_t deadline)
{
	const struct pinmx_event *ev;
	const uint8_t *f;

	while ((ev = node_next(n, ms_left(deadline)))) {
		f = (const uint8_t *)(ev + 1);
		CHECK(ev->type == PINMX_EVENT_FRAME && f[0] == PINMX_KIND_NOTIFY,
		      "event %u kind %u while waiting for NOTIFY", ev->type,
		      f[0]);
		if (get32(f + 32) != seed) {
			node_consume(n);
			continue;
		}
		CHECK(get32(f + 36) == 0 && get64(f + 40) == len,
		      "len %llu: NOTIFY status %u bytes %llu",
		      (unsigned long long)len, get32(f + 36),
		      (unsigned long long)get64(f + 40));
		node_consume(n);
		return 0;
	}
	return 1;
}

/*
 * Sender side of one message: eager or RNDV of a region over @buf, then the
 * receiver's NOTIFY. The buffer's pages are served by the module. Under
 * loss the RNDV goes again until the NOTIFY comes.
 */
static int send_message(struct node *n, uint8_t *buf, uint64_t len,
			uint32_t seed, const struct xfer_cfg *cfg)
{
	uint64_t wait_ns = cfg->lossy ? 300000000ULL : 120000000000ULL;
	uint32_t region = 0;
	uint8_t h[72];
	int tries, r = 1;

	fill(buf, len, seed);
	if (len > EAGER_MAX)
		CHECK_OK(pmx_declare1(n->fd, buf, len, 0, &region));
	for (tries = 0; r == 1 && tries < 200; tries++) {
		if (len <= EAGER_MAX) {
			CHECK_OK(send_eager(n, buf, len));
		} else {
			header(n, h, PINMX_KIND_RNDV, 0);
			put64(h + 40, len);
			put32(h + 56, region);
			put32(h + 60, seed);
			CHECK_OK(node_send(n, h, 64, NULL, 0));
		}
		r = wait_notify(n, seed, len, now_ns() + wait_ns);
		if (r < 0 || !cfg->lossy)
			break;
	}
	CHECK(r == 0, "len %llu: no NOTIFY after %d tries",
	      (unsigned long long)len, tries);
	if (region)
		CHECK_OK(pmx_destroy(n->fd, region));
	return 0;
}

/* Receives fragments of an eager message of @len into @buf. */
static int recv_eager(struct node *n, uint8_t *buf, uint64_t len)
{
	uint64_t got = 0;
	const uint8_t *f;

	if (!len) {
		f = expect_frame(n, PINMX_KIND_TINY, 5000);
		CHECK(f && get32(f + 24) == 0, "no empty TINY");
		node_consume(n);
		return 0;
	}
	while (got < len) {
		f = expect_frame(n, PINMX_KIND_MEDIUM_FRAG, 5000);
		CHECK(f && get32(f + 40) == len, "fragment of %llu bytes missing",
		      (unsigned long long)len);
		memcpy(buf + get32(f + 44), f + 56, get32(f + 24));
		got += get32(f + 24);
		node_consume(n);
	}
	return 0;
}

/*
 * A RNDV of an earlier message came again (its NOTIFY was lost): answer
 * it again. Returns true if @f was such a RNDV, consumed.
 */
static bool renotify_stale(struct node *n, const uint8_t *f, uint32_t seed)
{
	if (f[0] != PINMX_KIND_RNDV || get32(f + 60) >= seed)
		return false;
	send_notify(n, get32(f + 60), 0, get64(f + 40));
	node_consume(n);
	return true;
}

/* Next RNDV of @seed; stale ones are answered again. NULL if none. */
static const uint8_t *expect_rndv(struct node *n, uint32_t seed)
{
	uint64_t deadline = now_ns() + 10000000000ULL;
	const struct pinmx_event *ev;
	const uint8_t *f;

	while ((ev = node_next(n, ms_left(deadline)))) {
		f = (const uint8_t *)(ev + 1);
		if (ev->type != PINMX_EVENT_FRAME)
			break;
		if (renotify_stale(n, f, seed))
			continue;
		if (f[0] == PINMX_KIND_RNDV && get32(f + 60) == seed)
			return f;
		break;
	}
	printf("# no RNDV %u\n", seed);
	return NULL;
}

/*
 * Pulls the RNDV's region into @buf and returns the end event (consumed,
 * copied to @pe), or 1. RNDVs resent meanwhile are skipped or answered.
 */
static int pull_rndv(struct node *n, const uint8_t *rndv, uint8_t *buf,
		     uint64_t len, int wait_ms, struct pinmx_pull_event *pe)
{
	uint32_t seed = get32(rndv + 60);
	struct pinmx_pull req = {
		.peer_endpoint = n->peer_index, .flags = n->pull_flags,
		.peer_session = n->peer_session,
		.remote_region = get32(rndv + 56),
		.remote_offset = get64(rndv + 48), .length = len,
		.handle = seed,
	};
	uint64_t deadline = now_ns() + wait_ms * 1000000ULL;
	const struct pinmx_event *ev;
	const uint8_t *f;
	uint32_t region;

	memcpy(req.peer_mac, n->peer_mac, 6);
	CHECK_OK(pmx_declare1(n->fd, buf, len, PINMX_DECLARE_WRITABLE, &region));
	req.local_region = region;
	CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL, &req));
	node_consume(n);
	while ((ev = node_next(n, ms_left(deadline)))) {
		f = (const uint8_t *)(ev + 1);
		if (ev->type == PINMX_EVENT_PULL_DONE ||
		    ev->type == PINMX_EVENT_PULL_FAILED) {
			memcpy(pe, f, sizeof(*pe));
			node_consume(n);
			CHECK_OK(pmx_destroy(n->fd, region));
			return 0;
		}
		CHECK(f[0] == PINMX_KIND_RNDV, "kind %u during a pull", f[0]);
		if (!renotify_stale(n, f, seed))
			node_consume(n);
	}
	CHECK(0, "len %llu: no pull end event", (unsigned long long)len);
}

static int recv_message(struct node *n, uint8_t *buf, uint64_t len,
			uint32_t seed, int wait_ms)
{
	struct pinmx_pull_event pe;
	const uint8_t *f;

	memset(buf, 0, len);
	if (len <= EAGER_MAX) {
		if (recv_eager(n, buf, len))
			return 1;
	} else {
		f = expect_rndv(n, seed);
		CHECK(f && get64(f + 40) == len, "len %llu: no RNDV",
		      (unsigned long long)len);
		if (pull_rndv(n, f, buf, len, wait_ms, &pe))
			return 1;
		CHECK(pe.status == PINMX_PULL_OK && pe.bytes == len &&
		      pe.handle == seed,
		      "len %llu: status %u error %d bytes %llu handle %u",
		      (unsigned long long)len, pe.status, pe.error,
		      (unsigned long long)pe.bytes, pe.handle);
	}
	CHECK(mismatch(buf, len, seed) == len, "len %llu: byte %zu differs",
	      (unsigned long long)len, mismatch(buf, len, seed));
	CHECK_OK(send_notify(n, seed, 0, len));
	return 0;
}

/* Sizes of the transfer tests: eager, both sides of the threshold, pulls. */
static const uint64_t sizes[] = {
	0, 1, 32, 128, 1444, 1445, 4096, 32768, 32769, 100000, MiB + 3,
	16 * MiB, 64 * MiB,
};

/* How a two-process test runs: where each side lives and what it does. */
struct pair_cfg {
	const char *ifname_a, *ifname_b;
	const char *ns_a, *ns_b;	/* NULL: stay in this namespace */
	uint32_t pull_flags;
	bool sender_killed;		/* the receiver kills the sender */
	int (*sender)(struct node *n, void *arg);
	int (*receiver)(struct node *n, void *arg, pid_t sender);
	void *arg;
};

static bool size_runs(const struct xfer_cfg *cfg, uint64_t len)
{
	return len <= cfg->max && (!cfg->lossy || len > EAGER_MAX);
}

static int sender_all_sizes(struct node *n, void *arg)
{
	const struct xfer_cfg *cfg = arg;
	uint8_t *buf = map_anon(cfg->max);
	size_t i;

	CHECK(buf, "map %llu", (unsigned long long)cfg->max);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (size_runs(cfg, sizes[i]) &&
		    send_message(n, buf, sizes[i], 1000 + i, cfg))
			return 1;
	return 0;
}

/*
 * Under loss the last NOTIFY may be lost as well: answer the RNDVs the
 * sender sends again until it has exited (left unreaped for run_pair()).
 */
static int renotify_until_exit(struct node *n, pid_t sender, uint32_t seed)
{
	const struct pinmx_event *ev;
	siginfo_t info;

	for (;;) {
		memset(&info, 0, sizeof(info));
		CHECK_OK(waitid(P_PID, sender, &info,
				WEXITED | WNOHANG | WNOWAIT));
		if (info.si_pid == sender)
			return 0;
		ev = node_next(n, 50);
		CHECK(!ev || (ev->type == PINMX_EVENT_FRAME &&
			      renotify_stale(n, (const uint8_t *)(ev + 1), seed)),
		      "event %u after the last message", ev->type);
	}
}

static int receiver_all_sizes(struct node *n, void *arg, pid_t sender)
{
	const struct xfer_cfg *cfg = arg;
	uint8_t *buf = map_anon(cfg->max);
	size_t i;

	CHECK(buf, "map %llu", (unsigned long long)cfg->max);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t t0 = now_ns();

		if (!size_runs(cfg, sizes[i]))
			continue;
		if (recv_message(n, buf, sizes[i], 1000 + i, 120000))
			return 1;
		if (sizes[i] >= MiB)
			printf("# %llu B checked in %.1f ms\n",
			       (unsigned long long)sizes[i],
			       (now_ns() - t0) / 1e6);
	}
	return cfg->lossy ? renotify_until_exit(n, sender, 1000 + i) : 0;
}

/* Runs the sender in a child and the receiver here; 0 if both passed. */
static int run_pair(const struct pair_cfg *cfg)
{
	int sv[2], status, r;
	struct node n = { 0 };
	pid_t child;

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	child = fork();
	CHECK(child >= 0, "fork");
	if (!child) {
		close(sv[0]);
		if (cfg->ns_a && enter_netns(cfg->ns_a))
			_exit(3);
		if (node_open(&n, cfg->ifname_a, 11, sv[1]))
			_exit(4);
		_exit(cfg->sender(&n, cfg->arg) ? 1 : 0);
	}
	close(sv[1]);
	r = 1;
	if ((!cfg->ns_b || !enter_netns(cfg->ns_b)) &&
	    !node_open(&n, cfg->ifname_b, 12, sv[0])) {
		n.pull_flags = cfg->pull_flags;
		r = cfg->receiver(&n, cfg->arg, child);
	}
	if (r)
		kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child, "waitpid");
	close(sv[0]);
	node_close(&n);
	CHECK(!r, "receiver failed");
	CHECK(cfg->sender_killed ? WIFSIGNALED(status) :
	      WIFEXITED(status) && !WEXITSTATUS(status),
	      "sender exited with status %#x", status);
	return 0;
}

static int transfer_sizes(const char *a, const char *b, const char *ns_a,
			  const char *ns_b, uint32_t flags, uint64_t max,
			  bool lossy)
{
	struct xfer_cfg xfer = { .max = max, .lossy = lossy };
	uint64_t pulls0 = pmx_counter(PINMX_CNT_PULLS_DONE);
	uint64_t local0 = pmx_counter(PINMX_CNT_PULLS_LOCAL);
	uint64_t replies0 = pmx_counter(PINMX_CNT_PULL_REPLIES_RECEIVED);
	struct pair_cfg cfg = {
		.ifname_a = a, .ifname_b = b, .ns_a = ns_a, .ns_b = ns_b,
		.pull_flags = flags, .sender = sender_all_sizes,
		.receiver = receiver_all_sizes, .arg = &xfer,
	};
	uint64_t npulls = 0;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		npulls += sizes[i] > EAGER_MAX && sizes[i] <= max;
	if (run_pair(&cfg))
		return 1;
	CHECK(pmx_counter(PINMX_CNT_PULLS_DONE) - pulls0 == npulls,
	      "pulls done +%llu, expected %llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PULLS_DONE) - pulls0),
	      (unsigned long long)npulls);
	if (ns_a || (flags & PINMX_PULL_WIRE)) {
		CHECK(pmx_counter(PINMX_CNT_PULLS_LOCAL) == local0,
		      "a wire pull was done locally");
		CHECK(pmx_counter(PINMX_CNT_PULL_REPLIES_RECEIVED) > replies0,
		      "no PULL_REPLY frames");
	} else {
		CHECK(pmx_counter(PINMX_CNT_PULLS_LOCAL) - local0 == npulls,
		      "same-interface pulls not done region to region");
	}
	return 0;
}

static int test_lo_transfers_wire(void)
{
	return transfer_sizes("lo", "lo", NULL, NULL, PINMX_PULL_WIRE, 64 * MiB,
			      false);
}

static int test_lo_transfers_local_copy(void)
{
	return transfer_sizes("lo", "lo", NULL, NULL, 0, 64 * MiB, false);
}

static int test_veth_transfers(void)
{
	int r;

	CHECK_OK(setup_veth());
	r = transfer_sizes("vpa", "vpb", NS_A, NS_B, 0, 64 * MiB, false);
	teardown_veth();
	return r;
}

/*
 * Two endpoints bound to one veth end: every frame between them (eager,
 * RNDV, NOTIFY, PULL, PULL_REPLY) is addressed to the interface's own MAC,
 * which the veth never returns; the module hands such frames to its own
 * receive path. Wire pulls, so the PULL frames take that path too.
 */
static int test_veth_same_interface_transfers(void)
{
	uint64_t tx_err0 = pmx_counter(PINMX_CNT_TX_ERRORS);
	int r;

	CHECK_OK(setup_veth());
	r = transfer_sizes("vpa", "vpa", NS_A, NS_A, PINMX_PULL_WIRE, 16 * MiB,
			   false);
	teardown_veth();
	if (r)
		return r;
	CHECK(pmx_counter(PINMX_CNT_TX_ERRORS) == tx_err0,
	      "%llu frames failed to send",
	      (unsigned long long)(pmx_counter(PINMX_CNT_TX_ERRORS) - tx_err0));
	return 0;
}

/*
 * An endpoint on a veth end sends to itself (its own MAC and index): the
 * TINY and every MEDIUM_FRAG come back into its own ring, bytes exact.
 */
static int test_veth_self_send(void)
{
	static uint8_t buf[3 * FRAG_BYTES + 17], got[sizeof(buf)];
	struct node n = { 0 };
	size_t i;
	int r = 1;

	CHECK_OK(setup_veth());
	if (enter_netns(NS_A) || node_bind(&n, "vpa", 7))
		goto out;
	node_link(&n, &n);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	if (send_eager(&n, buf, 0) || recv_eager(&n, got, 0))
		goto out;
	if (send_eager(&n, buf, sizeof(buf)) ||
	    recv_eager(&n, got, sizeof(buf)))
		goto out;
	if (memcmp(buf, got, sizeof(buf))) {
		printf("# self-sent bytes differ\n");
		goto out;
	}
	r = 0;
out:
	node_close(&n);
	teardown_veth();
	CHECK(!r, "self-send on vpa failed");
	return 0;
}

static int test_veth_netem_loss_transfers(void)
{
	uint64_t resends0 = pmx_counter(PINMX_CNT_PULL_RESENDS);
	int r;

	CHECK_OK(setup_veth());
	CHECK_OK(run("ip netns exec " NS_A " tc qdisc add dev vpa root netem loss 1% && "
		     "ip netns exec " NS_B " tc qdisc add dev vpb root netem loss 1%"));
	CHECK_OK(pmx_write_param("pull_resend_ms", "10"));
	r = transfer_sizes("vpa", "vpb", NS_A, NS_B, 0, 16 * MiB, true);
	pmx_write_param("pull_resend_ms", "50");
	teardown_veth();
	if (r)
		return r;
	printf("# pull resends under 1%% loss: %llu\n",
	       (unsigned long long)(pmx_counter(PINMX_CNT_PULL_RESENDS) - resends0));
	CHECK(pmx_counter(PINMX_CNT_PULL_RESENDS) > resends0,
	      "no resend under 1%% loss");
	return 0;
}

/*
 * Pinning slowed on purpose: replies reach pages not pinned yet and are
 * dropped as overlap misses, requests find served pages not pinned; the
 * resends recover and the data is right.
 */
static int test_overlap_miss_slow_pinning(void)
{
	uint64_t miss0 = pmx_counter(PINMX_CNT_OVERLAP_MISSES);
	uint64_t serve0 = pmx_counter(PINMX_CNT_SERVE_MISSES);
	struct xfer_cfg xfer = { .max = 4 * MiB };
	struct pair_cfg cfg = {
		.ifname_a = "lo", .ifname_b = "lo",
		.pull_flags = PINMX_PULL_WIRE, .sender = sender_all_sizes,
		.receiver = receiver_all_sizes, .arg = &xfer,
	};
	int r;

	CHECK_OK(pmx_write_param("pin_delay_us", "20000"));
	CHECK_OK(pmx_write_param("pull_resend_ms", "10"));
	r = run_pair(&cfg);
	pmx_write_param("pin_delay_us", "0");
	pmx_write_param("pull_resend_ms", "50");
	if (r)
		return r;
	printf("# overlap misses %llu, serve misses %llu\n",
	       (unsigned long long)(pmx_counter(PINMX_CNT_OVERLAP_MISSES) - miss0),
	       (unsigned long long)(pmx_counter(PINMX_CNT_SERVE_MISSES) - serve0));
	CHECK(pmx_counter(PINMX_CNT_OVERLAP_MISSES) > miss0,
	      "no overlap miss with slow pinning");
	CHECK(pmx_counter(PINMX_CNT_SERVE_MISSES) > serve0,
	      "no serve miss with slow pinning");
	return 0;
}

/* Declares 64 MiB filled with @seed and sends its RNDV (handle @seed). */
static int offer_64mib(struct node *n, uint32_t seed)
{
	uint64_t len = 64 * MiB;
	uint8_t *buf = map_anon(len);
	uint32_t region;
	uint8_t h[72];

	CHECK(buf, "map");
	fill(buf, len, seed);
	CHECK_OK(pmx_declare1(n->fd, buf, len, 0, &region));
	header(n, h, PINMX_KIND_RNDV, 0);
	put64(h + 40, len);
	put32(h + 56, region);
	put32(h + 60, seed);
	CHECK_OK(node_send(n, h, 64, NULL, 0));
	return 0;
}

/* The sender offers 64 MiB, then waits to be killed. */
static int sender_then_idle(struct node *n, void *arg)
{
	(void)arg;
	if (offer_64mib(n, 7))
		return 1;
	for (;;)
		pause();
}

/* Starts pulling, kills the sender once bytes flow, expects a failure. */
static int receiver_kills_sender(struct node *n, void *arg, pid_t sender)
{
	uint64_t len = 64 * MiB, bytes0 = pmx_counter(PINMX_CNT_PULL_BYTES);
	uint8_t *buf = map_anon(len);
	struct pinmx_pull req = {
		.peer_endpoint = n->peer_index, .flags = PINMX_PULL_WIRE,
		.peer_session = n->peer_session, .length = len, .handle = 7,
	};
	const struct pinmx_pull_event *pe;
	const struct pinmx_event *ev;
	const uint8_t *f;
	uint64_t t0;
	int i;

	(void)arg;
	CHECK(buf, "map");
	f = expect_frame(n, PINMX_KIND_RNDV, 5000);
	CHECK(f, "no RNDV");
	req.remote_region = get32(f + 56);
	memcpy(req.peer_mac, n->peer_mac, 6);
	CHECK_OK(pmx_declare1(n->fd, buf, len, PINMX_DECLARE_WRITABLE,
			      &req.local_region));
	CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL, &req));
	node_consume(n);
	for (i = 0; i < 2000 && pmx_counter(PINMX_CNT_PULL_BYTES) < bytes0 + MiB; i++)
		usleep(1000);
	CHECK(!node_next(n, 0), "pull ended before the kill");
	kill(sender, SIGKILL);
	t0 = now_ns();
	ev = node_next(n, 30000);
	CHECK(ev && ev->type == PINMX_EVENT_PULL_FAILED, "no PULL_FAILED");
	pe = (const struct pinmx_pull_event *)(ev + 1);
	printf("# PULL_FAILED after %.0f ms: status %u error %d nack %u bytes %llu\n",
	       (now_ns() - t0) / 1e6, pe->status, pe->error, pe->nack_reason,
	       (unsigned long long)pe->bytes);
	CHECK(pe->handle == 7 && pe->bytes < len && pe->local == 0 &&
	      (pe->status == PINMX_PULL_FAILED || pe->status == PINMX_PULL_TIMEOUT),
	      "handle %u status %u local %u", pe->handle, pe->status, pe->local);
	node_consume(n);
	return 0;
}

/* The sender serves 64 MiB; the puller is killed in the middle. */
static int sender_outlives_puller(struct node *n, void *arg)
{
	char c;

	(void)arg;
	if (offer_64mib(n, 8))
		return 1;
	/* Told to stop by the test once the puller is dead. */
	CHECK(read(STDIN_FILENO, &c, 1) >= 0, "read");
	return 0;
}

/*
 * Forks a serving process: endpoint @index on lo, address swapped over
 * @sock, stdin from the pipe @in (end of file tells it to stop; its write
 * end @in_w is closed in the child), stdout to @out unless negative.
 */
static pid_t fork_server_on(int in, int in_w, int out, int sock, uint8_t index,
			    int (*serve)(struct node *n, void *arg),
			    const char *netns, const char *ifname)
{
	struct node n = { 0 };
	pid_t pid = fork();

	if (pid)
		return pid;
	dup2(in, STDIN_FILENO);
	close(in_w);
	if (out >= 0)
		dup2(out, STDOUT_FILENO);
	if (netns && enter_netns(netns))
		_exit(3);
	if (node_open(&n, ifname, index, sock))
		_exit(4);
	_exit(serve(&n, NULL) ? 1 : 0);
}

static pid_t fork_server(int in, int in_w, int out, int sock, uint8_t index,
			 int (*serve)(struct node *n, void *arg))
{
	return fork_server_on(in, in_w, out, sock, index, serve, NULL, "lo");
}

/*
 * A process killed in the middle of a pull: (1) the server: the puller gets
 * PULL_FAILED (NACK BAD_ENDPOINT, or TIMEOUT); (2) the puller: its pins go
 * with it. Afterwards no page is pinned and no region is left.
 */
static int test_killed_peer_mid_pull(void)
{
	uint64_t pinned0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	struct pair_cfg cfg = {
		.ifname_a = "lo", .ifname_b = "lo",
		.sender = sender_then_idle, .receiver = receiver_kills_sender,
		.sender_killed = true,
	};
	int pipefd[2], status, i;
	pid_t server, puller;

	if (run_pair(&cfg))
		return 1;
	for (i = 0; i < 5000 && (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != pinned0 ||
				 pmx_counter(PINMX_CNT_REGIONS_NOW) != regions0); i++)
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == pinned0 &&
	      pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0,
	      "server killed: %llu pages, %llu regions left",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - pinned0),
	      (unsigned long long)(pmx_counter(PINMX_CNT_REGIONS_NOW) - regions0));

	/* (2): fork the server with a pipe as stdin, run the puller in a child. */
	CHECK_OK(pipe(pipefd));
	{
		int sv[2];
		uint64_t bytes0 = pmx_counter(PINMX_CNT_PULL_BYTES);

		CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
		server = fork_server(pipefd[0], pipefd[1], -1, sv[1], 13,
				     sender_outlives_puller);
		CHECK(server >= 0, "fork");
		puller = fork();
		CHECK(puller >= 0, "fork");
		if (!puller) {
			struct node n = { 0 };
			uint64_t len = 64 * MiB;
			uint8_t *buf = map_anon(len);
			const uint8_t *f;
			struct pinmx_pull req = { .flags = PINMX_PULL_WIRE,
						  .length = len, .handle = 8 };

			close(sv[1]);
			if (!buf || node_open(&n, "lo", 14, sv[0]))
				_exit(4);
			f = expect_frame(&n, PINMX_KIND_RNDV, 5000);
			if (!f)
				_exit(5);
			memcpy(req.peer_mac, n.peer_mac, 6);
			req.peer_endpoint = n.peer_index;
			req.peer_session = n.peer_session;
			req.remote_region = get32(f + 56);
			if (pmx_declare1(n.fd, buf, len, PINMX_DECLARE_WRITABLE,
					 &req.local_region) ||
			    ioctl(n.fd, PINMX_IOC_PULL, &req))
				_exit(6);
			for (;;)
				pause();
		}
		close(sv[0]);
		close(sv[1]);
		for (i = 0; i < 5000 && pmx_counter(PINMX_CNT_PULL_BYTES) < bytes0 + MiB; i++)
			usleep(1000);
		CHECK(pmx_counter(PINMX_CNT_PULL_BYTES) < bytes0 + 64 * MiB,
		      "pull finished before the kill");
		kill(puller, SIGKILL);
		CHECK(waitpid(puller, &status, 0) == puller && WIFSIGNALED(status),
		      "puller status %#x", status);
		close(pipefd[1]);
		CHECK(waitpid(server, &status, 0) == server &&
		      WIFEXITED(status) && !WEXITSTATUS(status),
		      "server status %#x", status);
		close(pipefd[0]);
	}
	for (i = 0; i < 5000 && (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != pinned0 ||
				 pmx_counter(PINMX_CNT_REGIONS_NOW) != regions0); i++)
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == pinned0 &&
	      pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0,
	      "puller killed: %llu pages, %llu regions left",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - pinned0),
	      (unsigned long long)(pmx_counter(PINMX_CNT_REGIONS_NOW) - regions0));
	return 0;
}

/*
 * Pulls 64 MiB and cancels the pull once bytes flow: the cancel ends it
 * (one PULL_FAILED, CANCELLED), nothing lands in the buffer afterwards,
 * and a second cancel, an unknown handle and bad arguments change nothing.
 * A pull that ended before the cancel reached it is pulled again.
 */
static int receiver_cancels_pull(struct node *n, void *arg, pid_t sender)
{
	uint64_t len = 64 * MiB, cancelled0 = pmx_counter(PINMX_CNT_PULLS_CANCELLED);
	uint8_t *buf = map_anon(len), *seen = map_anon(len);
	struct pinmx_pull req = {
		.peer_endpoint = n->peer_index, .flags = PINMX_PULL_WIRE,
		.peer_session = n->peer_session, .length = len,
	};
	struct pinmx_pull_cancel c = { 0 };
	const struct pinmx_pull_event *pe;
	const struct pinmx_event *ev;
	const uint8_t *f;
	uint64_t bytes0, t0;
	int attempt, i;

	(void)arg;
	CHECK(buf && seen, "map");
	/* The sender fills and pins 64 MiB first: slow in a loaded guest. */
	f = expect_frame(n, PINMX_KIND_RNDV, 30000);
	CHECK(f, "no RNDV");
	req.remote_region = get32(f + 56);
	memcpy(req.peer_mac, n->peer_mac, 6);
	node_consume(n);
	CHECK_OK(pmx_declare1(n->fd, buf, len, PINMX_DECLARE_WRITABLE,
			      &req.local_region));
	for (attempt = 0; attempt < 5; attempt++) {
		memset(buf, 0, len);
		req.handle = 20 + attempt;
		bytes0 = pmx_counter(PINMX_CNT_PULL_BYTES);
		CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL, &req));
		for (i = 0; i < 2000 && pmx_counter(PINMX_CNT_PULL_BYTES) < bytes0 + MiB; i++)
			usleep(1000);
		c = (struct pinmx_pull_cancel){ .handle = req.handle };
		t0 = now_ns();
		CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL_CANCEL, &c));
		t0 = now_ns() - t0;
		memcpy(seen, buf, len);
		if (c.cancelled)
			break;
		ev = node_next(n, 20000);
		CHECK(ev && ev->type == PINMX_EVENT_PULL_DONE,
		      "uncancelled pull did not end done");
		node_consume(n);
	}
	CHECK(c.cancelled == 1, "cancelled %u pulls in %d attempts",
	      c.cancelled, attempt);
	/* The end event is in the ring when the ioctl returns. */
	ev = node_next(n, 0);
	CHECK(ev && ev->type == PINMX_EVENT_PULL_FAILED, "no PULL_FAILED");
	pe = (const struct pinmx_pull_event *)(ev + 1);
	printf("# cancelled after %llu bytes; the ioctl took %.3f ms\n",
	       (unsigned long long)pe->bytes, t0 / 1e6);
	CHECK(pe->handle == req.handle && pe->status == PINMX_PULL_CANCELLED &&
	      pe->error == ECANCELED && pe->local == 1 && pe->bytes < len,
	      "handle %u status %u error %d local %u bytes %llu", pe->handle,
	      pe->status, pe->error, pe->local, (unsigned long long)pe->bytes);
	node_consume(n);
	/* Replies still on their way arrive now: none may be written. */
	CHECK(!node_next(n, 200), "an event after the cancelled pull's end");
	CHECK(!memcmp(seen, buf, len), "bytes written after the cancel");
	CHECK(pmx_counter(PINMX_CNT_PULLS_CANCELLED) == cancelled0 + 1,
	      "pulls_cancelled +%llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PULLS_CANCELLED) - cancelled0));

	c.cancelled = 0;
	CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL_CANCEL, &c));
	CHECK(c.cancelled == 0, "an ended pull cancelled again");
	c = (struct pinmx_pull_cancel){ .handle = 4242 };
	CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL_CANCEL, &c));
	CHECK(c.cancelled == 0, "an unknown handle cancelled %u", c.cancelled);
	c = (struct pinmx_pull_cancel){ .handle = req.handle, .reserved = 1 };
	CHECK_ERRNO(ioctl(n->fd, PINMX_IOC_PULL_CANCEL, &c), EINVAL);
	c = (struct pinmx_pull_cancel){ .handle = req.handle, .cancelled = 1 };
	CHECK_ERRNO(ioctl(n->fd, PINMX_IOC_PULL_CANCEL, &c), EINVAL);
	CHECK(!node_next(n, 0), "an event from a refused cancel");

	/* The endpoint pulls as before. */
	req.handle = 30;
	CHECK_OK(ioctl(n->fd, PINMX_IOC_PULL, &req));
	ev = node_next(n, 20000);
	CHECK(ev && ev->type == PINMX_EVENT_PULL_DONE, "pull after a cancel");
	pe = (const struct pinmx_pull_event *)(ev + 1);
	CHECK(pe->handle == 30 && pe->bytes == len, "handle %u bytes %llu",
	      pe->handle, (unsigned long long)pe->bytes);
	node_consume(n);
	kill(sender, SIGKILL);
	return 0;
}

/*
 * PINMX_IOC_PULL_CANCEL on a running 64 MiB wire pull over lo, then on an
 * unbound endpoint (ENOTCONN); afterwards no page is pinned and no region
 * is left.
 */
static int test_pull_cancel(void)
{
	uint64_t pinned0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	struct pair_cfg cfg = {
		.ifname_a = "lo", .ifname_b = "lo",
		.sender = sender_then_idle, .receiver = receiver_cancels_pull,
		.sender_killed = true,
	};
	struct pinmx_pull_cancel c = { .handle = 1 };
	struct pinmx_info info;
	int fd, i;

	fd = pmx_open();
	CHECK(fd >= 0, "open");
	CHECK_OK(ioctl(fd, PINMX_IOC_INFO, &info));
	CHECK(info.features & PINMX_FEATURE_NET_PULL_CANCEL,
	      "PINMX_FEATURE_NET_PULL_CANCEL not announced");
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_PULL_CANCEL, &c), ENOTCONN);
	close(fd);
	if (run_pair(&cfg))
		return 1;
	for (i = 0; i < 5000 && (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != pinned0 ||
				 pmx_counter(PINMX_CNT_REGIONS_NOW) != regions0); i++)
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == pinned0 &&
	      pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0,
	      "%llu pages, %llu regions left",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - pinned0),
	      (unsigned long long)(pmx_counter(PINMX_CNT_REGIONS_NOW) - regions0));
	return 0;
}

static int node_pull(struct node *n, uint32_t remote, uint64_t roff,
		     uint32_t local, uint64_t loff, uint64_t len,
		     uint32_t flags)
{
	struct pinmx_pull req = {
		.peer_endpoint = n->peer_index, .flags = flags,
		.peer_session = n->peer_session, .remote_region = remote,
		.local_region = local, .remote_offset = roff,
		.local_offset = loff, .length = len, .handle = 99,
	};

	memcpy(req.peer_mac, n->peer_mac, 6);
	return ioctl(n->fd, PINMX_IOC_PULL, &req);
}

/* Waits for the end of a pull; 0 and *pe filled, or 1. */
static int pull_end(struct node *n, struct pinmx_pull_event *pe)
{
	const struct pinmx_event *ev = node_next(n, 20000);

	CHECK(ev && (ev->type == PINMX_EVENT_PULL_DONE ||
		     ev->type == PINMX_EVENT_PULL_FAILED), "no pull end");
	memcpy(pe, ev + 1, sizeof(*pe));
	node_consume(n);
	return 0;
}

/* Sender for the error cases: a 64 KiB region with a hole, then waits. */
static int sender_error_regions(struct node *n, void *arg)
{
	uint8_t *buf = map_anon(16 * PAGE);
	struct pinmx_segment segs[2];
	uint64_t ids[3];	/* two region ids, the hole's address */
	uint32_t id;
	char c;

	(void)arg;
	CHECK(buf, "map");
	fill(buf, 16 * PAGE, 3);
	CHECK_OK(pmx_declare1(n->fd, buf, 8 * PAGE, 0, &id));
	ids[0] = id;
	/* Segment 1 is unmapped: declaration succeeds, serving fails. */
	CHECK_OK(munmap(buf + 12 * PAGE, 4 * PAGE));
	segs[0] = (struct pinmx_segment){ (uintptr_t)buf, 4 * PAGE };
	segs[1] = (struct pinmx_segment){ (uintptr_t)buf + 12 * PAGE, 4 * PAGE };
	CHECK_OK(pmx_declare(n->fd, segs, 2, 0, &id));
	ids[1] = id;
	ids[2] = segs[1].vaddr;
	CHECK(write(STDOUT_FILENO, ids, sizeof(ids)) == sizeof(ids), "ids");
	CHECK(read(STDIN_FILENO, &c, 1) >= 0, "read");
	return 0;
}

/*
 * Every way a pull can be refused reaches the puller as a PULL_FAILED with
 * the right status, and bad requests fail the ioctl with an errno.
 */
static int test_pull_errors_reported(void)
{
	uint8_t *buf = map_anon(16 * PAGE);
	struct pinmx_pull_event pe;
	int in[2], out[2], sv[2], status;
	uint64_t ids[3];
	uint32_t local, ro;
	struct node n = { 0 };
	pid_t server;

	CHECK(buf, "map");
	CHECK_OK(pipe(in));
	CHECK_OK(pipe(out));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	server = fork_server(in[0], in[1], out[1], sv[1], 21,
			     sender_error_regions);
	CHECK(server >= 0, "fork");
	close(in[0]);
	close(out[1]);
	close(sv[1]);
	if (node_open(&n, "lo", 22, sv[0]))
		goto fail;
	CHECK(read(out[0], ids, sizeof(ids)) == sizeof(ids), "server ids");
	CHECK_OK(pmx_declare1(n.fd, buf, 16 * PAGE, PINMX_DECLARE_WRITABLE, &local));
	CHECK_OK(pmx_declare1(n.fd, buf, PAGE, 0, &ro));

	/* ioctl errors: nothing starts. */
	CHECK_ERRNO(node_pull(&n, ids[0], 0, ro, 0, PAGE, PINMX_PULL_WIRE), EPERM);
	CHECK_ERRNO(node_pull(&n, ids[0], 0, 999, 0, PAGE, PINMX_PULL_WIRE), ENOENT);
	CHECK_ERRNO(node_pull(&n, ids[0], 0, local, 15 * PAGE, 2 * PAGE, 0), ERANGE);
	CHECK_ERRNO(node_pull(&n, ids[0], 1ULL << 63, local, 0, PAGE, 0), EOVERFLOW);
	CHECK_ERRNO(node_pull(&n, ids[0], 0, local, 0, PAGE, 0x80), EINVAL);

	/* Empty pull: done at once. */
	CHECK_OK(node_pull(&n, ids[0], 0, local, 0, 0, PINMX_PULL_WIRE));
	if (pull_end(&n, &pe))
		goto fail;
	CHECK(pe.status == PINMX_PULL_OK && pe.bytes == 0, "empty pull %u", pe.status);

	/* Refusals by the server, over the wire and region to region. */
	for (uint32_t flags = 0; flags <= PINMX_PULL_WIRE; flags += PINMX_PULL_WIRE) {
		CHECK_OK(node_pull(&n, 12345, 0, local, 0, PAGE, flags));
		if (pull_end(&n, &pe))
			goto fail;
		CHECK(pe.status == PINMX_PULL_UNKNOWN_REGION && !pe.local,
		      "flags %u unknown region: status %u", flags, pe.status);
		CHECK_OK(node_pull(&n, ids[0], 7 * PAGE, local, 0, 2 * PAGE, flags));
		if (pull_end(&n, &pe))
			goto fail;
		CHECK(pe.status == PINMX_PULL_OUT_OF_RANGE && pe.bytes == 0,
		      "flags %u out of range: status %u", flags, pe.status);
		CHECK_OK(node_pull(&n, ids[1], 0, local, 0, 8 * PAGE, flags));
		if (pull_end(&n, &pe))
			goto fail;
		CHECK(pe.status == PINMX_PULL_SEGMENT_FAULT && pe.error == EFAULT &&
		      !pe.local, "flags %u hole: status %u error %d local %u",
		      flags, pe.status, pe.error, pe.local);
		CHECK(pe.segment == 1 &&
		      pe.address == ids[2] &&
		      pe.nack_reason == (flags ? 5 : 0),
		      "flags %u hole: segment %u address %#llx nack %u", flags,
		      pe.segment, (unsigned long long)pe.address,
		      pe.nack_reason);
	}
	/* Wrong session: NACK BAD_SESSION. */
	n.peer_session++;
	CHECK_OK(node_pull(&n, ids[0], 0, local, 0, PAGE, PINMX_PULL_WIRE));
	if (pull_end(&n, &pe))
		goto fail;
	CHECK(pe.status == PINMX_PULL_FAILED && pe.nack_reason == 2,
	      "stale session: status %u nack %u", pe.status, pe.nack_reason);
	n.peer_session--;
	/* The good region still pulls right. */
	CHECK_OK(node_pull(&n, ids[0], 0, local, 0, 8 * PAGE, PINMX_PULL_WIRE));
	if (pull_end(&n, &pe))
		goto fail;
	CHECK(pe.status == PINMX_PULL_OK && mismatch(buf, 8 * PAGE, 3) == 8 * PAGE,
	      "good pull after errors: status %u", pe.status);
	close(in[1]);
	CHECK(waitpid(server, &status, 0) == server && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "server status %#x", status);
	/*
	 * Server gone: NACK BAD_ENDPOINT. Its endpoint closes when the last
	 * reference to its file drops, which may follow waitpid (an mm a pin
	 * worker still holds unmaps the ring later, by a deferred fput):
	 * until then a pull is still served.
	 */
	for (uint64_t deadline = now_ns() + 5000000000ULL;;) {
		CHECK_OK(node_pull(&n, ids[0], 0, local, 0, PAGE,
				   PINMX_PULL_WIRE));
		if (pull_end(&n, &pe))
			return 1;
		if (pe.status != PINMX_PULL_OK || !ms_left(deadline))
			break;
	}
	CHECK(pe.status == PINMX_PULL_FAILED && pe.nack_reason == 1,
	      "server gone: status %u nack %u", pe.status, pe.nack_reason);
	node_close(&n);
	return 0;
fail:
	kill(server, SIGKILL);
	waitpid(server, &status, 0);
	return 1;
}

/*
 * A served region whose memory the test breaks (a wire pull over it must
 * fail SEGMENT_FAULT) and fixes again with new data (the next wire pull
 * must bring exactly that data): a refusal reflects the mapping at the
 * time of the pull, never an old failure.
 */
struct refault {
	struct pinmx_segment segs[3];
	unsigned int nr_segs;
	uint64_t len;		/* region bytes */
	unsigned int bad_seg;	/* segment holding the broken range */
	uint8_t *bad;		/* the broken range */
	size_t bad_len;
	int memfd;
	int (*brk)(struct refault *r);
	int (*fix)(struct refault *r);
};

#define REFAULT_ROUNDS	20

static int refault_protect(struct refault *r)
{
	return mprotect(r->bad, r->bad_len, PROT_NONE);
}

static int refault_unprotect(struct refault *r)
{
	return mprotect(r->bad, r->bad_len, PROT_READ | PROT_WRITE);
}

static int refault_shrink(struct refault *r)
{
	return ftruncate(r->memfd, r->len - r->bad_len);
}

static int refault_grow(struct refault *r)
{
	return ftruncate(r->memfd, r->len);
}

static int refault_punch(struct refault *r)
{
	return munmap(r->bad, r->bad_len);
}

static int refault_refill(struct refault *r)
{
	void *p = mmap(r->bad, r->bad_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	return p == r->bad ? 0 : -1;
}

/* One segment, its second quarter made PROT_NONE. */
static int refault_mprotect_setup(struct refault *r)
{
	uint8_t *buf = map_anon(MiB);

	CHECK(buf, "map");
	r->segs[0] = (struct pinmx_segment){ (uintptr_t)buf, MiB };
	r->nr_segs = 1;
	r->bad = buf + MiB / 4;
	r->bad_len = MiB / 4;
	r->brk = refault_protect;
	r->fix = refault_unprotect;
	return 0;
}

/* A memfd mapped shared, truncated to half and grown back. */
static int refault_memfd_setup(struct refault *r)
{
	uint8_t *buf;

	r->memfd = memfd_create("pinmx-refault", MFD_CLOEXEC);
	CHECK(r->memfd >= 0, "memfd_create: %s", strerror(errno));
	CHECK_OK(ftruncate(r->memfd, MiB));
	buf = mmap(NULL, MiB, PROT_READ | PROT_WRITE, MAP_SHARED, r->memfd, 0);
	CHECK(buf != MAP_FAILED, "mmap memfd: %s", strerror(errno));
	r->segs[0] = (struct pinmx_segment){ (uintptr_t)buf, MiB };
	r->nr_segs = 1;
	r->bad = buf + MiB / 2;
	r->bad_len = MiB / 2;
	r->brk = refault_shrink;
	r->fix = refault_grow;
	return 0;
}

/* Three segments with gaps between them; a hole in the middle one. */
static int refault_hole_setup(struct refault *r)
{
	size_t seg = 384 * 1024;
	uint8_t *buf = map_anon(5 * seg);
	unsigned int i;

	CHECK(buf, "map");
	for (i = 0; i < 3; i++)
		r->segs[i] = (struct pinmx_segment){ (uintptr_t)buf + 2 * i * seg,
						     seg };
	r->nr_segs = 3;
	r->bad_seg = 1;
	r->bad = buf + 2 * seg + seg / 3 / PAGE * PAGE;
	r->bad_len = seg / 3 / PAGE * PAGE;
	r->brk = refault_punch;
	r->fix = refault_refill;
	return 0;
}

/* Writes new data, seed @seed + segment index, into every segment. */
static void refault_write(struct refault *r, uint32_t seed)
{
	unsigned int i;

	for (i = 0; i < r->nr_segs; i++)
		fill((void *)(uintptr_t)r->segs[i].vaddr, r->segs[i].len,
		     seed + i);
}

/* Is @dst exactly what refault_write(@seed) wrote? */
static int refault_check(struct refault *r, const uint8_t *dst, uint32_t seed)
{
	uint64_t off = 0;
	unsigned int i;

	for (i = 0; i < r->nr_segs; i++) {
		size_t bad = mismatch(dst + off, r->segs[i].len, seed + i);

		CHECK(bad == r->segs[i].len, "seed %u: byte %llu differs",
		      seed, (unsigned long long)(off + bad));
		off += r->segs[i].len;
	}
	return 0;
}

static int refault_rounds(struct refault *r, const char *what)
{
	struct node srv = { 0 }, pul = { 0 };
	struct pinmx_pull_event pe;
	uint32_t remote, local;
	uint8_t *dst;
	unsigned int round;

	r->len = 0;
	for (round = 0; round < r->nr_segs; round++)
		r->len += r->segs[round].len;
	dst = map_anon(r->len);
	CHECK(dst, "map");
	if (node_bind(&srv, "lo", 50) || node_bind(&pul, "lo", 51))
		return 1;
	node_link(&pul, &srv);
	refault_write(r, 1);
	CHECK_OK(pmx_declare(srv.fd, r->segs, r->nr_segs, 0, &remote));
	CHECK_OK(pmx_declare1(pul.fd, dst, r->len, PINMX_DECLARE_WRITABLE,
			      &local));
	CHECK_OK(node_pull(&pul, remote, 0, local, 0, r->len, PINMX_PULL_WIRE));
	if (pull_end(&pul, &pe))
		return 1;
	CHECK(pe.status == PINMX_PULL_OK, "%s: first pull: status %u",
	      what, pe.status);
	if (refault_check(r, dst, 1))
		return 1;
	for (round = 0; round < REFAULT_ROUNDS; round++) {
		uint32_t seed = 100 + 4 * round;
		uint64_t seg_start = r->segs[r->bad_seg].vaddr;

		CHECK_OK(r->brk(r));
		CHECK_OK(node_pull(&pul, remote, 0, local, 0, r->len,
				   PINMX_PULL_WIRE));
		if (pull_end(&pul, &pe))
			return 1;
		CHECK(pe.status == PINMX_PULL_SEGMENT_FAULT &&
		      pe.error == EFAULT && !pe.local && pe.nack_reason == 5,
		      "%s round %u broken: status %u error %d local %u nack %u",
		      what, round, pe.status, pe.error, pe.local,
		      pe.nack_reason);
		CHECK(pe.segment == r->bad_seg && pe.address >= seg_start &&
		      pe.address < (uintptr_t)r->bad + r->bad_len,
		      "%s round %u broken: segment %u address %#llx", what,
		      round, pe.segment, (unsigned long long)pe.address);

		CHECK_OK(r->fix(r));
		refault_write(r, seed);
		memset(dst, 0, r->len);
		CHECK_OK(node_pull(&pul, remote, 0, local, 0, r->len,
				   PINMX_PULL_WIRE));
		if (pull_end(&pul, &pe))
			return 1;
		CHECK(pe.status == PINMX_PULL_OK && pe.bytes == r->len,
		      "%s round %u fixed: status %u error %d nack %u bytes %llu",
		      what, round, pe.status, pe.error, pe.nack_reason,
		      (unsigned long long)pe.bytes);
		if (refault_check(r, dst, seed))
			return 1;
	}
	node_close(&pul);
	node_close(&srv);
	return 0;
}

static int test_refault_mprotect(void)
{
	struct refault r = { .memfd = -1 };

	return refault_mprotect_setup(&r) || refault_rounds(&r, "mprotect");
}

static int test_refault_memfd_truncate(void)
{
	struct refault r = { .memfd = -1 };

	return refault_memfd_setup(&r) || refault_rounds(&r, "memfd");
}

static int test_refault_hole_mmap_fixed(void)
{
	struct refault r = { .memfd = -1 };

	return refault_hole_setup(&r) || refault_rounds(&r, "hole");
}

/*
 * Region ids reused under a puller: a thread destroys the served region
 * (id 1), has another endpoint declare a region over other data (which
 * takes the freed region's memory, reused at once), declares id 1 again
 * over the same data and destroys the other one, over and over.
 */
struct id_churn {
	int srv_fd, other_fd;
	uint8_t *src, *other;
	size_t len;
	bool stop;
	int err;		/* errno of the call that failed, or 0 */
	unsigned long cycles;
};

static void *churn_region_ids(void *arg)
{
	struct id_churn *c = arg;
	uint32_t id, other;

	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		errno = EPROTO;
		if (pmx_destroy(c->srv_fd, 1) ||
		    pmx_declare1(c->other_fd, c->other, c->len, 0, &other) ||
		    pmx_declare1(c->srv_fd, c->src, c->len, 0, &id) || id != 1 ||
		    pmx_destroy(c->other_fd, other)) {
			c->err = errno;
			break;
		}
		c->cycles++;
	}
	return NULL;
}

/*
 * Wire pulls of a region id that is destroyed and declared again meanwhile
 * end either OK with exactly the served data (every region declared under
 * that id covers it) or UNKNOWN_REGION: never with the data, length or
 * fault of a region that took the old one's memory.
 */
static int test_pulls_while_ids_reused(void)
{
	size_t len = 64 * PAGE;
	uint8_t *src = map_anon(len), *other = map_anon(len), *dst = map_anon(len);
	struct id_churn c = { .src = src, .other = other, .len = len };
	unsigned int pulls = 0, done = 0, unknown = 0;
	bool bad = false;
	struct node srv = { 0 }, pul = { 0 };
	struct pinmx_pull_event pe = { 0 };
	uint32_t remote, local;
	pthread_t thread;
	uint64_t end;

	CHECK(src && other && dst, "map");
	fill(src, len, 7);
	fill(other, len, 8);
	if (node_bind(&srv, "lo", 54) || node_bind(&pul, "lo", 55))
		return 1;
	node_link(&pul, &srv);
	c.srv_fd = srv.fd;
	c.other_fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	CHECK(c.other_fd >= 0, "open");
	CHECK_OK(pmx_declare1(srv.fd, src, len, 0, &remote));
	CHECK(remote == 1, "first region id %u", remote);
	CHECK_OK(pmx_declare1(pul.fd, dst, len, PINMX_DECLARE_WRITABLE, &local));
	CHECK(!pthread_create(&thread, NULL, churn_region_ids, &c), "thread");
	for (end = now_ns() + 3000000000ULL; !bad && now_ns() < end; pulls++) {
		memset(dst, 0, len);
		bad = node_pull(&pul, 1, 0, local, 0, len, PINMX_PULL_WIRE) ||
		      pull_end(&pul, &pe);
		if (bad)
			break;
		done += pe.status == PINMX_PULL_OK;
		unknown += pe.status == PINMX_PULL_UNKNOWN_REGION;
		bad = pe.status == PINMX_PULL_OK ? mismatch(dst, len, 7) != len :
		      pe.status != PINMX_PULL_UNKNOWN_REGION;
	}
	__atomic_store_n(&c.stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	printf("# %u pulls: %u done, %u unknown region; %lu id cycles\n",
	       pulls, done, unknown, c.cycles);
	CHECK(!c.err, "churn: %s", strerror(c.err));
	CHECK(!bad, "pull %u: status %u error %d nack %u bytes %llu, byte %zu differs",
	      pulls, pe.status, pe.error, pe.nack_reason,
	      (unsigned long long)pe.bytes, mismatch(dst, len, 7));
	CHECK(c.cycles > 0 && pulls > 0, "nothing raced");
	/* Quiet again: id 1 pulls in full. */
	CHECK_OK(node_pull(&pul, 1, 0, local, 0, len, PINMX_PULL_WIRE));
	if (pull_end(&pul, &pe))
		return 1;
	CHECK(pe.status == PINMX_PULL_OK && mismatch(dst, len, 7) == len,
	      "after the churn: status %u", pe.status);
	close(c.other_fd);
	node_close(&pul);
	node_close(&srv);
	return 0;
}

/*
 * The server declares 256 KiB, leaves its endpoint to a child and exits:
 * its region's pages can no longer be pinned.
 */
static int sender_exits_child_holds(struct node *n, void *arg)
{
	uint8_t *buf = map_anon(64 * PAGE);
	uint32_t id;
	char c;

	(void)arg;
	CHECK(buf, "map");
	fill(buf, 64 * PAGE, 5);
	CHECK_OK(pmx_declare1(n->fd, buf, 64 * PAGE, 0, &id));
	CHECK(write(STDOUT_FILENO, &id, sizeof(id)) == sizeof(id), "id");
	if (fork() == 0) {
		/* Holds the endpoint until the test closes stdin. */
		while (read(STDIN_FILENO, &c, 1) > 0)
			;
		_exit(0);
	}
	return 0;
}

/*
 * A pull from a region whose declaring process has exited (its endpoint
 * still open elsewhere) ends, on the same-interface path as by frames
 * (NACK BAD_ENDPOINT), with a PULL_FAILED event carrying ESRCH: the peer
 * is gone. The PULL ioctl itself succeeds.
 */
static int test_pull_from_exited_process(void)
{
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	uint8_t *dst = map_anon(64 * PAGE);
	struct pinmx_pull_event pe;
	int in[2], out[2], sv[2], status, i;
	struct node n = { 0 };
	uint32_t remote, local;
	pid_t server;

	CHECK(dst, "map");
	CHECK_OK(pipe(in));
	CHECK_OK(pipe(out));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	server = fork_server(in[0], in[1], out[1], sv[1], 40,
			     sender_exits_child_holds);
	CHECK(server >= 0, "fork");
	close(in[0]);
	close(out[1]);
	close(sv[1]);
	if (node_open(&n, "lo", 41, sv[0]))
		return 1;
	CHECK(read(out[0], &remote, sizeof(remote)) == sizeof(remote),
	      "server region id");
	CHECK(waitpid(server, &status, 0) == server && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "server status %#x", status);
	CHECK_OK(pmx_declare1(n.fd, dst, 64 * PAGE, PINMX_DECLARE_WRITABLE,
			      &local));
	for (uint32_t flags = 0; flags <= PINMX_PULL_WIRE; flags += PINMX_PULL_WIRE) {
		CHECK_OK(node_pull(&n, remote, 0, local, 0, 64 * PAGE, flags));
		if (pull_end(&n, &pe))
			return 1;
		CHECK(pe.status == PINMX_PULL_FAILED && pe.error == ESRCH &&
		      !pe.local && pe.bytes == 0 &&
		      pe.nack_reason == (flags ? 1 : 0),
		      "flags %u: status %u error %d local %u bytes %llu nack %u",
		      flags, pe.status, pe.error, pe.local,
		      (unsigned long long)pe.bytes, pe.nack_reason);
	}
	close(in[1]);
	node_close(&n);
	for (i = 0; i < 5000 && pmx_counter(PINMX_CNT_REGIONS_NOW) != regions0; i++)
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0,
	      "%llu regions left",
	      (unsigned long long)(pmx_counter(PINMX_CNT_REGIONS_NOW) - regions0));
	return 0;
}

/* What the key test's server tells the puller. */
struct exposed_msg {
	uint32_t exposed;	/* exposed region of endpoint 42, seed 7 */
	uint32_t plain;		/* region of endpoint 42 not exposed, seed 8 */
	uint32_t other;		/* exposed region of endpoint 43, seed 9 */
	uint32_t other_session;
	uint64_t key;		/* of @exposed */
	uint64_t other_key;	/* of @other */
};

static int declare_filled(int fd, uint8_t *buf, uint32_t seed, uint32_t flags,
			  uint32_t *id, uint64_t *key)
{
	struct pinmx_region_info ri;

	fill(buf, 8 * PAGE, seed);
	CHECK_OK(pmx_declare1(fd, buf, 8 * PAGE, flags, id));
	CHECK_OK(pmx_region_info(fd, *id, &ri));
	*key = ri.key;
	return 0;
}

/* Server of the key test: two endpoints, exposed and plain regions. */
static int sender_exposed_regions(struct node *n, void *arg)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	uint8_t *buf = map_anon(24 * PAGE);
	struct exposed_msg m = { 0 };
	struct node other = { 0 };
	uint64_t none;
	char c;

	(void)arg;
	CHECK(buf, "map");
	if (node_bind(&other, "lo", 43) ||
	    declare_filled(n->fd, buf, 7, remote, &m.exposed, &m.key) ||
	    declare_filled(n->fd, buf + 8 * PAGE, 8, 0, &m.plain, &none) ||
	    declare_filled(other.fd, buf + 16 * PAGE, 9, remote, &m.other,
			   &m.other_key))
		return 1;
	m.other_session = other.session;
	CHECK(write(STDOUT_FILENO, &m, sizeof(m)) == sizeof(m), "ids");
	CHECK(read(STDIN_FILENO, &c, 1) >= 0, "read");
	return 0;
}

static int node_pull_key(struct node *n, uint32_t remote, uint64_t key,
			 uint32_t local, uint32_t flags)
{
	struct pinmx_pull req = {
		.peer_endpoint = n->peer_index, .flags = flags,
		.peer_session = n->peer_session, .remote_region = remote,
		.local_region = local, .length = 8 * PAGE, .handle = 98,
		.remote_key = key,
	};

	memcpy(req.peer_mac, n->peer_mac, 6);
	return ioctl(n->fd, PINMX_IOC_PULL, &req);
}

/*
 * One pull of 8 pages with @key must end with @status; a refused one
 * leaves @dst as it was (seed 99) and counts one more @counter.
 */
static int pull_keyed(struct node *n, uint32_t remote, uint64_t key,
		      uint32_t local, uint8_t *dst, uint32_t flags,
		      uint32_t status, uint32_t seed, int counter)
{
	uint64_t c0 = pmx_counter(counter);
	struct pinmx_pull_event pe;

	fill(dst, 8 * PAGE, 99);
	CHECK_OK(node_pull_key(n, remote, key, local, flags));
	if (pull_end(n, &pe))
		return 1;
	CHECK(pe.status == status, "flags %u region %u key %#llx: status %u "
	      "error %d nack %u", flags, remote, (unsigned long long)key,
	      pe.status, pe.error, pe.nack_reason);
	if (status != PINMX_PULL_OK) {
		CHECK(pe.error == EACCES && pe.bytes == 0 && !pe.local &&
		      pe.nack_reason == (flags ? 7 : 0),
		      "refusal: error %d bytes %llu nack %u", pe.error,
		      (unsigned long long)pe.bytes, pe.nack_reason);
		CHECK(pmx_counter(counter) == c0 + 1, "counter %d +%llu",
		      counter, (unsigned long long)(pmx_counter(counter) - c0));
		seed = 99;
	}
	CHECK(mismatch(dst, 8 * PAGE, seed) == 8 * PAGE,
	      "flags %u region %u: local bytes differ at %zu", flags, remote,
	      mismatch(dst, 8 * PAGE, seed));
	return 0;
}

/* Waits until process @pid is stopped (state T); 0, or 1 after 10 s. */
static int wait_stopped(pid_t pid)
{
	char path[64], stat[256], *p;
	uint64_t deadline = now_ns() + 10000000000ULL;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	do {
		fd = open(path, O_RDONLY);
		CHECK(fd >= 0, "%s: %s", path, strerror(errno));
		len = read(fd, stat, sizeof(stat) - 1);
		stat[len > 0 ? len : 0] = 0;
		close(fd);
		p = strrchr(stat, ')');
		if (p && p[1] == ' ' && p[2] == 'T')
			return 0;
		usleep(1000);
	} while (now_ns() < deadline);
	CHECK(0, "process %d not stopped: %s", pid, stat);
}

static int keyed_pulls(struct node *n, const struct exposed_msg *m,
		       uint32_t local, uint8_t *dst, uint32_t flags)
{
	const int bad = PINMX_CNT_RX_BAD_KEY, none = PINMX_CNT_RX_NO_KEY;
	const uint32_t refused = PINMX_PULL_BAD_KEY, ok = PINMX_PULL_OK;
	struct node other = *n;

	other.peer_index = 43;
	other.peer_session = m->other_session;
	return pull_keyed(n, m->exposed, 0, local, dst, flags, refused, 0, none) ||
	       pull_keyed(n, m->exposed, m->key ^ 1, local, dst, flags, refused, 0, bad) ||
	       pull_keyed(n, m->exposed, m->other_key, local, dst, flags, refused, 0, bad) ||
	       pull_keyed(&other, m->other, m->key, local, dst, flags, refused, 0, bad) ||
	       pull_keyed(n, m->exposed, m->key, local, dst, flags, ok, 7, 0) ||
	       pull_keyed(n, m->plain, 0, local, dst, flags, ok, 8, 0) ||
	       pull_keyed(n, m->plain, m->key, local, dst, flags, ok, 8, 0) ||
	       pull_keyed(&other, m->other, m->other_key, local, dst, flags, ok, 9, 0);
}

/*
 * An exposed region (PINMX_DECLARE_REMOTE) is pulled only with its key, by
 * frames and region to region: no key, a wrong key, another region's key
 * and another endpoint's region are refused with BAD_KEY, counted by
 * reason, and leave the local memory as it was; the right key pulls the
 * data, also while the serving process is stopped; a region not exposed
 * ignores keys.
 */
static int test_pull_key_checked(void)
{
	uint8_t *dst = map_anon(8 * PAGE);
	int in[2], out[2], sv[2], status;
	struct exposed_msg m;
	struct node n = { 0 };
	uint32_t local;
	pid_t server;
	int err = 1;

	CHECK(dst, "map");
	CHECK_OK(pipe(in));
	CHECK_OK(pipe(out));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	server = fork_server(in[0], in[1], out[1], sv[1], 42,
			     sender_exposed_regions);
	CHECK(server >= 0, "fork");
	close(in[0]);
	close(out[1]);
	close(sv[1]);
	if (node_open(&n, "lo", 44, sv[0]) ||
	    read(out[0], &m, sizeof(m)) != sizeof(m))
		goto out;
	CHECK_OK(pmx_declare1(n.fd, dst, 8 * PAGE, PINMX_DECLARE_WRITABLE,
			      &local));
	if (keyed_pulls(&n, &m, local, dst, 0) ||
	    keyed_pulls(&n, &m, local, dst, PINMX_PULL_WIRE))
		goto out;
	/* Served without the serving process. */
	CHECK_OK(kill(server, SIGSTOP));
	if (wait_stopped(server) ||
	    keyed_pulls(&n, &m, local, dst, PINMX_PULL_WIRE))
		goto out;
	CHECK_OK(kill(server, SIGCONT));
	close(in[1]);
	CHECK(waitpid(server, &status, 0) == server && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "server status %#x", status);
	node_close(&n);
	return 0;
out:
	kill(server, SIGKILL);
	waitpid(server, &status, 0);
	return err;
}

/* Target of the put tests: what it tells the origin. */
struct put_target_msg {
	uint32_t exposed;	/* 64 pages of a memfd (mapping A), seed 1 */
	uint32_t plain;		/* 16 anonymous pages not exposed, seed 2 */
	uint64_t key;		/* of @exposed */
};

#define PUT_REGION	(64 * PAGE)
#define PUT_PLAIN	(16 * PAGE)

/* What the put target does to the exposed region's memory (A) on command. */
static int put_target_remap(char c, uint8_t *a, pid_t *child)
{
	switch (c) {
	case 'u':
		return munmap(a, PUT_REGION);
	case 'r':
		return mprotect(a, PUT_REGION, PROT_READ);
	case 'w':
		return mprotect(a, PUT_REGION, PROT_READ | PROT_WRITE);
	case 'f':
		if (mmap(a, PUT_REGION, PROT_READ | PROT_WRITE,
			 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != a)
			return -1;
		fill(a, PUT_REGION, 3);
		return 0;
	case 'c':
		*child = fork();
		if (!*child) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pause();
			_exit(0);
		}
		if (*child < 0)
			return -1;
		/* Break copy-on-write of every page that is not pinned. */
		for (size_t i = 0; i < PUT_REGION; i += PAGE)
			a[i] = (uint8_t)(a[i] + 1);
		return 0;
	case 'C':
		return kill(*child, SIGKILL) || waitpid(*child, NULL, 0) != *child;
	}
	return -1;
}

static int hold_writes(int fd, uint32_t region, uint32_t hold)
{
	struct pinmx_hold_writes req = { .region_id = region, .hold = hold };

	return ioctl(fd, PINMX_IOC_HOLD_WRITES, &req);
}

/*
 * Target of the put tests. Commands on stdin: 'd' dumps the memfd through
 * a second mapping (B) and the plain region to stdout, 'a' dumps A (the
 * exposed region's memory as this process sees it); 'u' unmaps A, 'r'
 * makes it read-only and 'w' writable again, 'f' maps fresh private
 * anonymous memory over it (MAP_FIXED, seed 3), 'c' forks a child that
 * shares it copy-on-write and writes a byte of every page, 'C' kills that
 * child, 'h' holds the exposed region's remote writes back and 'o' lets
 * them in (PINMX_IOC_HOLD_WRITES): each answers 'k' when done; end of file
 * ends it.
 */
static int put_target(struct node *n, void *arg)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	int memfd = memfd_create("pinmx-put", MFD_CLOEXEC);
	uint8_t *a, *b, *plain = map_anon(PUT_PLAIN);
	struct pinmx_region_info ri;
	struct put_target_msg m;
	pid_t child = -1;
	char c;

	(void)arg;
	CHECK(memfd >= 0 && plain && !ftruncate(memfd, PUT_REGION), "memfd");
	a = mmap(NULL, PUT_REGION, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	b = mmap(NULL, PUT_REGION, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	CHECK(a != MAP_FAILED && b != MAP_FAILED, "mmap: %s", strerror(errno));
	fill(a, PUT_REGION, 1);
	fill(plain, PUT_PLAIN, 2);
	CHECK_OK(pmx_declare1(n->fd, a, PUT_REGION, remote, &m.exposed));
	CHECK_OK(pmx_declare1(n->fd, plain, PUT_PLAIN, PINMX_DECLARE_WRITABLE,
			      &m.plain));
	CHECK_OK(pmx_region_info(n->fd, m.exposed, &ri));
	m.key = ri.key;
	CHECK(write(STDOUT_FILENO, &m, sizeof(m)) == sizeof(m), "msg");
	while (read(STDIN_FILENO, &c, 1) == 1) {
		if (c == 'd') {
			CHECK(write(STDOUT_FILENO, b, PUT_REGION) == PUT_REGION &&
			      write(STDOUT_FILENO, plain, PUT_PLAIN) == PUT_PLAIN,
			      "dump");
		} else if (c == 'a') {
			CHECK(write(STDOUT_FILENO, a, PUT_REGION) == PUT_REGION,
			      "dump A");
		} else if (c == 'h' || c == 'o') {
			CHECK_OK(hold_writes(n->fd, m.exposed, c == 'h'));
			CHECK(write(STDOUT_FILENO, "k", 1) == 1, "ack");
		} else {
			CHECK(!put_target_remap(c, a, &child), "command %c: %s",
			      c, strerror(errno));
			CHECK(write(STDOUT_FILENO, "k", 1) == 1, "ack");
		}
	}
	return 0;
}

/* The origin's side of the put tests. */
struct put_origin {
	struct node n;
	struct put_target_msg m;
	pid_t target;
	int in, out;		/* target's stdin (write end), stdout */
	uint8_t *src;		/* PUT_REGION bytes, declared as @local */
	uint32_t local;
	uint8_t *model;		/* what the exposed region must hold */
};

/*
 * The target in network namespace NS_A on vpa, this process in NS_B on vpb
 * when @veth, else both on lo.
 */
static int put_origin_open_on(struct put_origin *o, uint8_t index, bool veth)
{
	int in[2], out[2], sv[2];

	memset(o, 0, sizeof(*o));
	o->src = map_anon(PUT_REGION);
	o->model = map_anon(PUT_REGION);
	CHECK(o->src && o->model, "map");
	fill(o->model, PUT_REGION, 1);
	CHECK_OK(pipe(in));
	CHECK_OK(pipe(out));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	o->target = fork_server_on(in[0], in[1], out[1], sv[1], index,
				   put_target, veth ? NS_A : NULL,
				   veth ? "vpa" : "lo");
	CHECK(o->target >= 0, "fork");
	close(in[0]);
	close(out[1]);
	close(sv[1]);
	o->in = in[1];
	o->out = out[0];
	if ((veth && enter_netns(NS_B)) ||
	    node_open(&o->n, veth ? "vpb" : "lo", index + 1, sv[0]))
		return 1;
	CHECK(read(o->out, &o->m, sizeof(o->m)) == sizeof(o->m), "target msg");
	CHECK_OK(pmx_declare1(o->n.fd, o->src, PUT_REGION, 0, &o->local));
	return 0;
}

static int put_origin_open(struct put_origin *o, uint8_t index)
{
	return put_origin_open_on(o, index, false);
}

/* Ends the target; 0 if it exited cleanly. */
static int put_origin_close(struct put_origin *o)
{
	int status;

	close(o->in);
	CHECK(waitpid(o->target, &status, 0) == o->target &&
	      WIFEXITED(status) && !WEXITSTATUS(status),
	      "target status %#x", status);
	close(o->out);
	node_close(&o->n);
	return 0;
}

static int put_start(struct put_origin *o, uint32_t region, uint64_t key,
		     uint64_t roff, uint64_t loff, uint64_t len, uint32_t handle)
{
	struct pinmx_put req = {
		.peer_endpoint = o->n.peer_index,
		.peer_session = o->n.peer_session, .remote_region = region,
		.local_region = o->local, .remote_offset = roff,
		.local_offset = loff, .length = len, .handle = handle,
		.remote_key = key,
	};

	memcpy(req.peer_mac, o->n.peer_mac, 6);
	return ioctl(o->n.fd, PINMX_IOC_PUT, &req);
}

/* Waits for the end of a put; 0 and *pe filled, or 1. */
static int put_end(struct node *n, struct pinmx_pull_event *pe, bool *done)
{
	const struct pinmx_event *ev = node_next(n, 20000);

	CHECK(ev && (ev->type == PINMX_EVENT_PUT_DONE ||
		     ev->type == PINMX_EVENT_PUT_FAILED), "no put end (%u)",
	      ev ? ev->type : 0);
	memcpy(pe, ev + 1, sizeof(*pe));
	*done = ev->type == PINMX_EVENT_PUT_DONE;
	node_consume(n);
	return 0;
}

/*
 * One put of @len bytes of seed @seed at @roff that must complete; @model
 * takes what it wrote.
 */
static int put_into(struct put_origin *o, uint64_t roff, uint64_t len,
		    uint32_t seed, uint8_t *model)
{
	struct pinmx_pull_event pe;
	bool done;

	fill(o->src, len, seed);
	CHECK_OK(put_start(o, o->m.exposed, o->m.key, roff, 0, len, seed));
	if (put_end(&o->n, &pe, &done))
		return 1;
	CHECK(done && pe.status == PINMX_PULL_OK && pe.bytes == len &&
	      pe.handle == seed, "put %llu at %llu: status %u error %d",
	      (unsigned long long)len, (unsigned long long)roff, pe.status,
	      pe.error);
	memcpy(model + roff, o->src, len);
	return 0;
}

/* One put into the memfd's pages that must complete (see put_into()). */
static int put_one(struct put_origin *o, uint64_t roff, uint64_t len,
		   uint32_t seed)
{
	return put_into(o, roff, len, seed, o->model);
}

/* A put that must fail with @status, counting one more @counter (if any). */
static int put_refused(struct put_origin *o, uint32_t region, uint64_t key,
		       uint64_t roff, uint64_t len, uint32_t status,
		       uint8_t nack, int counter)
{
	uint64_t c0 = counter >= 0 ? pmx_counter(counter) : 0;
	struct pinmx_pull_event pe;
	bool done;

	fill(o->src, len, 77);
	CHECK_OK(put_start(o, region, key, roff, 0, len, 5));
	if (put_end(&o->n, &pe, &done))
		return 1;
	CHECK(!done && pe.status == status && pe.nack_reason == nack &&
	      pe.bytes == 0, "region %u key %#llx at %llu: done %d status %u "
	      "nack %u", region, (unsigned long long)key,
	      (unsigned long long)roff, done, pe.status, pe.nack_reason);
	CHECK(counter < 0 || pmx_counter(counter) >= c0 + 1,
	      "counter %d not counted", counter);
	return 0;
}

/* The target's memfd (through mapping B) and plain region into @got. */
static int put_dump(struct put_origin *o, uint8_t *got)
{
	size_t have = 0;
	ssize_t r;

	CHECK(got && write(o->in, "d", 1) == 1, "dump request");
	while (have < PUT_REGION + PUT_PLAIN) {
		r = read(o->out, got + have, PUT_REGION + PUT_PLAIN - have);
		CHECK(r > 0, "dump read: %zd", r);
		have += r;
	}
	return 0;
}

/* The target's memfd and plain region must be exactly the model and seed 2. */
static int put_check_target(struct put_origin *o)
{
	uint8_t *got = map_anon(PUT_REGION + PUT_PLAIN);

	if (put_dump(o, got))
		return 1;
	for (size_t i = 0; i < PUT_REGION; i++)
		CHECK(got[i] == o->model[i], "exposed region byte %zu: %#x, "
		      "expected %#x", i, got[i], o->model[i]);
	CHECK(mismatch(got + PUT_REGION, PUT_PLAIN, 2) == PUT_PLAIN,
	      "plain region written at %zu",
	      mismatch(got + PUT_REGION, PUT_PLAIN, 2));
	munmap(got, PUT_REGION + PUT_PLAIN);
	return 0;
}

/* Eight puts in flight at once, disjoint, every end checked. */
static int put_concurrent(struct put_origin *o)
{
	const uint64_t len = PAGE + 100, stride = 2 * PAGE;
	struct pinmx_pull_event pe;
	uint32_t seen = 0, i;
	bool done;

	for (i = 0; i < 8; i++)
		fill(o->src + i * stride, len, 20 + i);
	for (i = 0; i < 8; i++)
		CHECK_OK(put_start(o, o->m.exposed, o->m.key,
				   40 * PAGE + i * stride + 1, i * stride, len,
				   20 + i));
	for (i = 0; i < 8; i++) {
		if (put_end(&o->n, &pe, &done))
			return 1;
		CHECK(done && pe.handle >= 20 && pe.handle < 28 &&
		      !(seen & (1u << (pe.handle - 20))),
		      "concurrent put end: handle %u status %u", pe.handle,
		      pe.status);
		seen |= 1u << (pe.handle - 20);
	}
	for (i = 0; i < 8; i++)
		memcpy(o->model + 40 * PAGE + i * stride + 1, o->src + i * stride,
		       len);
	return 0;
}

/*
 * Puts into a stopped target: the module writes them in softirq, pinning
 * the target's pages on demand, and completes each at the origin (remote
 * completion) while the target process never runs; refusals (no, wrong
 * key, region not exposed, out of range, unknown region) end with their
 * status and are counted; bad requests fail the ioctl. After SIGCONT the
 * target's memory is exactly what the completed puts wrote.
 */
static int test_put_stopped_target(void)
{
	const int bad = PINMX_CNT_RX_BAD_KEY;
	uint64_t done0 = pmx_counter(PINMX_CNT_PUTS_DONE);
	uint64_t written0 = pmx_counter(PINMX_CNT_PUT_FRAMES_WRITTEN);
	uint64_t misses0 = pmx_counter(PINMX_CNT_PUT_MISSES);
	uint64_t resends0 = pmx_counter(PINMX_CNT_PUT_RESENDS);
	struct put_origin o;
	struct pinmx_put req = { 0 };

	if (put_origin_open(&o, 50))
		goto fail;
	CHECK_OK(kill(o.target, SIGSTOP));
	if (wait_stopped(o.target) ||
	    put_one(&o, 3, 1, 10) || put_one(&o, 5000, 1000, 11) ||
	    put_one(&o, 2 * PAGE, 1428, 12) || put_one(&o, 3 * PAGE + 1, 1429, 13) ||
	    put_one(&o, 7, 64 * 1024, 14) || put_one(&o, 10000, 200 * 1024, 15) ||
	    put_concurrent(&o) ||
	    put_one(&o, PUT_REGION - 10, 10, 16))
		goto fail;
	if (put_refused(&o, o.m.exposed, 0, 0, 100, PINMX_PULL_BAD_KEY, 7,
			PINMX_CNT_RX_NO_KEY) ||
	    put_refused(&o, o.m.exposed, o.m.key ^ 4, 0, 100,
			PINMX_PULL_BAD_KEY, 7, bad) ||
	    put_refused(&o, o.m.plain, o.m.key, 0, 100, PINMX_PULL_BAD_KEY, 7,
			PINMX_CNT_RX_NOT_EXPOSED) ||
	    put_refused(&o, o.m.exposed, o.m.key, PUT_REGION - 10, 11,
			PINMX_PULL_OUT_OF_RANGE, 4, PINMX_CNT_RX_OUT_OF_RANGE) ||
	    put_refused(&o, 999, o.m.key, 0, 100, PINMX_PULL_UNKNOWN_REGION, 3,
			-1))
		goto fail;
	CHECK(!wait_stopped(o.target), "target ran");
	printf("# target stopped: %llu PUT frames written, %llu misses, "
	       "%llu resends\n",
	       (unsigned long long)(pmx_counter(PINMX_CNT_PUT_FRAMES_WRITTEN) - written0),
	       (unsigned long long)(pmx_counter(PINMX_CNT_PUT_MISSES) - misses0),
	       (unsigned long long)(pmx_counter(PINMX_CNT_PUT_RESENDS) - resends0));
	CHECK(pmx_counter(PINMX_CNT_PUTS_DONE) >= done0 + 15, "puts done +%llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PUTS_DONE) - done0));
	/* Bad requests: nothing starts. */
	CHECK_ERRNO(put_start(&o, o.m.exposed, o.m.key, 0, 0, 0, 1), EINVAL);
	CHECK_ERRNO(put_start(&o, o.m.exposed, o.m.key, 0, 0,
			      PINMX_PUT_MAX_BYTES + 1, 1), EMSGSIZE);
	CHECK_ERRNO(put_start(&o, o.m.exposed, o.m.key, 1ULL << 63, 0, 1, 1),
		    EOVERFLOW);
	CHECK_ERRNO(put_start(&o, o.m.exposed, o.m.key, 0, PUT_REGION - 1, 2,
			      1), ERANGE);
	req.local_region = o.local;
	req.length = 1;
	req.reserved = 1;
	CHECK_ERRNO(ioctl(o.n.fd, PINMX_IOC_PUT, &req), EINVAL);
	req.reserved = 0;
	req.pad2 = 1;
	CHECK_ERRNO(ioctl(o.n.fd, PINMX_IOC_PUT, &req), EINVAL);
	req.pad2 = 0;
	req.local_region = 4000;
	CHECK_ERRNO(ioctl(o.n.fd, PINMX_IOC_PUT, &req), ENOENT);
	CHECK_OK(kill(o.target, SIGCONT));
	if (put_check_target(&o))
		goto fail;
	return put_origin_close(&o);
fail:
	kill(o.target, SIGKILL);
	waitpid(o.target, NULL, 0);
	return 1;
}

/*
 * The target unmaps the exposed region's memory after a put wrote it: the
 * next put fails SEGMENT_FAULT naming the region offset, and the pages
 * pinned before the munmap (still the memfd's pages, seen through a second
 * mapping) are not written. Every pin is released at the end.
 */
static int test_put_munmap_segment_fault(void)
{
	uint64_t pinned0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	struct pinmx_pull_event pe;
	struct put_origin o;
	uint64_t deadline;
	bool done;
	char k;

	if (put_origin_open(&o, 52) || put_one(&o, 0, PUT_REGION, 30))
		goto fail;
	CHECK(write(o.in, "u", 1) == 1 && read(o.out, &k, 1) == 1 && k == 'k',
	      "munmap in the target");
	fill(o.src, PUT_REGION, 31);
	CHECK_OK(put_start(&o, o.m.exposed, o.m.key, 0, 0, PUT_REGION, 31));
	if (put_end(&o.n, &pe, &done))
		goto fail;
	CHECK(!done && pe.status == PINMX_PULL_SEGMENT_FAULT &&
	      pe.error == EFAULT && pe.nack_reason == 5 && pe.segment == 0 &&
	      pe.address < PUT_REGION && pe.address % 1428 == 0,
	      "put after munmap: done %d status %u error %d nack %u segment %u "
	      "address %llu", done, pe.status, pe.error, pe.nack_reason,
	      pe.segment, (unsigned long long)pe.address);
	if (put_check_target(&o) || put_origin_close(&o))
		return 1;
	deadline = now_ns() + 5000000000ULL;
	while (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != pinned0 &&
	       ms_left(deadline))
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == pinned0,
	      "%lld pages left pinned",
	      (long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - pinned0));
	return 0;
fail:
	kill(o.target, SIGKILL);
	waitpid(o.target, NULL, 0);
	return 1;
}

/*
 * The target unmaps the region while a put writes it: the put completes
 * (the munmap came after its last frame) or fails SEGMENT_FAULT, the next
 * put fails, and the memfd's pages hold, byte by byte, the data of before
 * or of the put that raced, never the later put's. Pins all released.
 */
static int test_put_munmap_during_put(void)
{
	uint64_t pinned0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	uint8_t *got = map_anon(PUT_REGION + PUT_PLAIN);
	uint8_t *before = map_anon(PUT_REGION), *racing = map_anon(PUT_REGION);
	struct pinmx_pull_event pe;
	struct put_origin o;
	uint64_t deadline;
	bool done;
	char k;

	CHECK(got && before && racing, "map");
	fill(before, PUT_REGION, 30);
	fill(racing, PUT_REGION, 31);
	if (put_origin_open(&o, 58) || put_one(&o, 0, PUT_REGION, 30))
		goto fail;
	fill(o.src, PUT_REGION, 31);
	CHECK_OK(put_start(&o, o.m.exposed, o.m.key, 0, 0, PUT_REGION, 31));
	CHECK(write(o.in, "u", 1) == 1 && read(o.out, &k, 1) == 1 && k == 'k',
	      "munmap in the target");
	if (put_end(&o.n, &pe, &done))
		goto fail;
	CHECK(done || (pe.status == PINMX_PULL_SEGMENT_FAULT &&
		       pe.error == EFAULT), "racing put: status %u error %d",
	      pe.status, pe.error);
	printf("# put racing the munmap: %s\n", done ? "done" : "SEGMENT_FAULT");
	fill(o.src, PUT_REGION, 32);
	CHECK_OK(put_start(&o, o.m.exposed, o.m.key, 0, 0, PUT_REGION, 32));
	if (put_end(&o.n, &pe, &done))
		goto fail;
	CHECK(!done && pe.status == PINMX_PULL_SEGMENT_FAULT,
	      "put after munmap: status %u", pe.status);
	if (put_dump(&o, got))
		goto fail;
	for (size_t i = 0; i < PUT_REGION; i++)
		CHECK(got[i] == before[i] || got[i] == racing[i],
		      "byte %zu: %#x is neither the old nor the racing put's", i,
		      got[i]);
	if (put_origin_close(&o))
		return 1;
	deadline = now_ns() + 5000000000ULL;
	while (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != pinned0 &&
	       ms_left(deadline))
		usleep(1000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == pinned0,
	      "%lld pages left pinned",
	      (long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - pinned0));
	return 0;
fail:
	kill(o.target, SIGKILL);
	waitpid(o.target, NULL, 0);
	return 1;
}

static int putv_start(struct put_origin *o, const struct pinmx_put_piece *p,
		      uint32_t nr, uint32_t handle)
{
	struct pinmx_putv req = {
		.peer_endpoint = o->n.peer_index,
		.peer_session = o->n.peer_session,
		.remote_region = o->m.exposed, .local_region = o->local,
		.handle = handle, .nr_pieces = nr, .pieces = (uintptr_t)p,
		.remote_key = o->m.key,
	};

	memcpy(req.peer_mac, o->n.peer_mac, 6);
	return ioctl(o->n.fd, PINMX_IOC_PUTV, &req);
}

/* A vector put that must complete; the model follows it. */
static int putv_one(struct put_origin *o, const struct pinmx_put_piece *p,
		    uint32_t nr, uint32_t seed)
{
	struct pinmx_pull_event pe;
	uint64_t total = 0;
	bool done;

	fill(o->src, PUT_REGION, seed);
	CHECK_OK(putv_start(o, p, nr, seed));
	if (put_end(&o->n, &pe, &done))
		return 1;
	for (uint32_t i = 0; i < nr; i++) {
		memcpy(o->model + p[i].remote_offset, o->src + p[i].local_offset,
		       p[i].len);
		total += p[i].len;
	}
	CHECK(done && pe.bytes == total, "vector put of %u pieces: status %u "
	      "error %d", nr, pe.status, pe.error);
	return 0;
}

/*
 * Vector puts into a stopped target: a strided one (64 pieces of 100
 * bytes, 1000 apart) and one of pieces of 5000 (across pages), 1 and
 * 3000 bytes, each scattered by the target's softirq and completing once;
 * the memory is exact after SIGCONT. A piece past the region's end fails
 * the put OUT_OF_RANGE naming its offset; bad piece lists fail the ioctl.
 */
static int test_putv_stopped_target(void)
{
	struct pinmx_put_piece strided[64], vec[3] = {
		{ 200000, 7, 5000 }, { 250000, 9000, 1 }, { 180000, 20000, 3000 },
	};
	struct pinmx_put_piece bad[2];
	struct pinmx_pull_event pe;
	struct put_origin o;
	bool done;
	int i;

	for (i = 0; i < 64; i++)
		strided[i] = (struct pinmx_put_piece){ 100000 + i * 1000,
						       i * 100, 100 };
	if (put_origin_open(&o, 60))
		goto fail;
	CHECK_OK(kill(o.target, SIGSTOP));
	if (wait_stopped(o.target) || putv_one(&o, strided, 64, 50) ||
	    putv_one(&o, vec, 3, 51))
		goto fail;
	bad[0] = (struct pinmx_put_piece){ 0, 0, 10 };
	bad[1] = (struct pinmx_put_piece){ PUT_REGION - 5, 0, 10 };
	/* Whether the first piece lands or not, the memory stays the model. */
	memcpy(o.src, o.model, 10);
	CHECK_OK(putv_start(&o, bad, 2, 52));
	if (put_end(&o.n, &pe, &done))
		goto fail;
	CHECK(!done && pe.status == PINMX_PULL_OUT_OF_RANGE &&
	      pe.address == PUT_REGION - 5, "piece past the end: status %u "
	      "address %llu", pe.status, (unsigned long long)pe.address);
	CHECK(!wait_stopped(o.target), "target ran");
	CHECK_ERRNO(putv_start(&o, vec, 0, 1), EINVAL);
	CHECK_ERRNO(putv_start(&o, vec, PINMX_PUT_MAX_PIECES + 1, 1), E2BIG);
	CHECK_ERRNO(putv_start(&o, (void *)8, 2, 1), EFAULT);
	bad[1] = (struct pinmx_put_piece){ 0, 0, 0 };
	CHECK_ERRNO(putv_start(&o, bad, 2, 1), EINVAL);
	bad[1] = (struct pinmx_put_piece){ 0, PUT_REGION - 1, 2 };
	CHECK_ERRNO(putv_start(&o, bad, 2, 1), ERANGE);
	bad[1] = (struct pinmx_put_piece){ (1ULL << 63) - 1, 0, 2 };
	CHECK_ERRNO(putv_start(&o, bad, 2, 1), EOVERFLOW);
	bad[1] = (struct pinmx_put_piece){ 0, 0, PINMX_PUT_MAX_BYTES };
	CHECK_ERRNO(putv_start(&o, bad, 2, 1), EMSGSIZE);
	CHECK_OK(kill(o.target, SIGCONT));
	if (put_check_target(&o))
		goto fail;
	return put_origin_close(&o);
fail:
	kill(o.target, SIGKILL);
	waitpid(o.target, NULL, 0);
	return 1;
}

static int atomic_start(struct put_origin *o, uint8_t op, uint32_t width,
			uint64_t roff, uint64_t operand, uint64_t compare,
			const void *values, uint32_t count, uint32_t handle)
{
	struct pinmx_atomic req = {
		.peer_endpoint = o->n.peer_index, .op = op,
		.peer_session = o->n.peer_session,
		.remote_region = o->m.exposed, .width = width,
		.handle = handle, .count = count, .remote_offset = roff,
		.remote_key = o->m.key, .operand = operand, .compare = compare,
		.values = (uintptr_t)values,
	};

	memcpy(req.peer_mac, o->n.peer_mac, 6);
	return ioctl(o->n.fd, PINMX_IOC_ATOMIC, &req);
}

/* An atomic with its padding set must fail with EINVAL. */
static int atomic_padded(struct put_origin *o)
{
	struct pinmx_atomic req = {
		.peer_endpoint = o->n.peer_index, .op = PINMX_ATOMIC_FETCH_ADD,
		.peer_session = o->n.peer_session,
		.remote_region = o->m.exposed, .width = 8, .count = 1,
		.remote_key = o->m.key, .pad = 1,
	};

	memcpy(req.peer_mac, o->n.peer_mac, 6);
	CHECK_ERRNO(ioctl(o->n.fd, PINMX_IOC_ATOMIC, &req), EINVAL);
	return 0;
}

/* Waits for the end of an atomic; 0 and *ae filled, or 1. */
static int atomic_end(struct node *n, struct pinmx_atomic_event *ae,
		      bool *done)
{
	const struct pinmx_event *ev = node_next(n, 20000);

	CHECK(ev && (ev->type == PINMX_EVENT_ATOMIC_DONE ||
		     ev->type == PINMX_EVENT_ATOMIC_FAILED),
	      "no atomic end (%u)", ev ? ev->type : 0);
	memcpy(ae, ev + 1, sizeof(*ae));
	*done = ev->type == PINMX_EVENT_ATOMIC_DONE;
	node_consume(n);
	return 0;
}

/* One atomic that must complete; its old value in *old. */
static int atomic_one(struct put_origin *o, uint8_t op, uint32_t width,
		      uint64_t roff, uint64_t operand, uint64_t compare,
		      const void *values, uint32_t count, uint64_t *old)
{
	struct pinmx_atomic_event ae;
	bool done;

	CHECK_OK(atomic_start(o, op, width, roff, operand, compare, values,
			      count, 7));
	if (atomic_end(&o->n, &ae, &done))
		return 1;
	CHECK(done && ae.status == PINMX_PULL_OK && ae.handle == 7 &&
	      ae.op == op, "op %u at %llu: status %u error %d", op,
	      (unsigned long long)roff, ae.status, ae.error);
	*old = ae.old;
	return 0;
}

static uint64_t model_word(const struct put_origin *o, uint64_t off,
			   uint32_t width)
{
	uint64_t v = 0;

	memcpy(&v, o->model + off, width);
	return v;
}

static void model_set(struct put_origin *o, uint64_t off, uint32_t width,
		      uint64_t v)
{
	memcpy(o->model + off, &v, width);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * @n fetch-and-adds of @add on one word, up to 200 in flight (fewer while
 * the module answers EBUSY: the request 256 before is still in flight):
 * the old values returned are exactly init, init + add, ..., each once.
 */
static int fetch_adds(struct put_origin *o, uint32_t width, uint64_t roff,
		      uint64_t add, unsigned int n)
{
	uint64_t init = model_word(o, roff, width), *olds = calloc(n, 8);
	uint64_t mask = width == 8 ? ~0ULL : 0xffffffffULL;
	unsigned int sent = 0, got = 0, i;
	struct pinmx_atomic_event ae;
	bool done;

	CHECK(olds, "calloc");
	while (got < n) {
		while (sent < n && sent - got < 200) {
			if (atomic_start(o, PINMX_ATOMIC_FETCH_ADD, width, roff,
					 add, 0, NULL, 1, sent)) {
				CHECK(errno == EBUSY, "fetch-add: %s",
				      strerror(errno));
				break;
			}
			sent++;
		}
		if (atomic_end(&o->n, &ae, &done))
			return 1;
		CHECK(done && ae.status == PINMX_PULL_OK, "fetch-add %u: "
		      "status %u error %d", ae.handle, ae.status, ae.error);
		olds[got++] = ae.old;
	}
	qsort(olds, n, 8, cmp_u64);
	for (i = 0; i < n; i++) {
		uint64_t want = (init + i * add) & mask;

		/* Sorted olds of a run that may wrap: compare as a set. */
		CHECK(bsearch(&want, olds, n, 8, cmp_u64),
		      "old value %llu never returned (width %u)",
		      (unsigned long long)want, width);
	}
	model_set(o, roff, width, (init + n * add) & mask);
	free(olds);
	return 0;
}

/*
 * Atomics on a stopped target: 1000 int64 and 300 int32 fetch-and-adds
 * (every returned value checked: each old value exactly once), swaps
 * (each returns the previous one), compare-and-swaps that store and that
 * do not, int32 and int64 accumulates; all complete while the target is
 * stopped, and after SIGCONT its memory is exactly as expected. A wrong
 * key is refused and counted; a misaligned word fails the ioctl.
 */
static int test_atomics_stopped_target(void)
{
	uint64_t applied0 = pmx_counter(PINMX_CNT_ATOMICS_APPLIED);
	struct pinmx_atomic_event ae;
	int64_t acc64[100];
	int32_t acc32[179];
	struct put_origin o;
	uint64_t old, prev;
	bool done;
	int i;

	if (put_origin_open(&o, 54))
		goto fail;
	CHECK_OK(kill(o.target, SIGSTOP));
	if (wait_stopped(o.target) ||
	    fetch_adds(&o, 8, 0, 3, 1000) ||
	    fetch_adds(&o, 4, 8, (uint32_t)-1, 300))
		goto fail;
	prev = model_word(&o, 16, 8);
	for (i = 0; i < 10; i++) {
		if (atomic_one(&o, PINMX_ATOMIC_SWAP, 8, 16, 100 + i, 0, NULL, 1,
			       &old))
			goto fail;
		CHECK(old == prev, "swap %d: old %llu, expected %llu", i,
		      (unsigned long long)old, (unsigned long long)prev);
		prev = 100 + i;
	}
	model_set(&o, 16, 8, prev);
	for (uint32_t width = 4; width <= 8; width += 4) {
		uint64_t roff = width == 4 ? 24 : 32;
		uint64_t init = model_word(&o, roff, width);

		if (atomic_one(&o, PINMX_ATOMIC_CAS, width, roff, 5, init, NULL,
			       1, &old))
			goto fail;
		CHECK(old == init, "CAS%u that stores: old %llu", width * 8,
		      (unsigned long long)old);
		if (atomic_one(&o, PINMX_ATOMIC_CAS, width, roff, 9, init, NULL,
			       1, &old))
			goto fail;
		CHECK(old == 5, "CAS%u that does not store: old %llu",
		      width * 8, (unsigned long long)old);
		model_set(&o, roff, width, 5);
	}
	for (i = 0; i < 100; i++) {
		acc64[i] = i - 50;
		model_set(&o, 64 + i * 8, 8, model_word(&o, 64 + i * 8, 8) +
			  acc64[i]);
	}
	for (i = 0; i < 179; i++) {
		acc32[i] = 3 * i - 7;
		model_set(&o, 1024 + i * 4, 4,
			  (uint32_t)(model_word(&o, 1024 + i * 4, 4) + acc32[i]));
	}
	if (atomic_one(&o, PINMX_ATOMIC_ACCUMULATE, 8, 64, 0, 0, acc64, 100,
		       &old) ||
	    atomic_one(&o, PINMX_ATOMIC_ACCUMULATE, 4, 1024, 0, 0, acc32, 179,
		       &old))
		goto fail;
	/* Refusals: nothing applied. */
	o.m.key ^= 1;
	CHECK_OK(atomic_start(&o, PINMX_ATOMIC_FETCH_ADD, 8, 0, 1, 0, NULL, 1, 9));
	if (atomic_end(&o.n, &ae, &done))
		goto fail;
	CHECK(!done && ae.status == PINMX_PULL_BAD_KEY && ae.nack_reason == 7,
	      "wrong key: status %u nack %u", ae.status, ae.nack_reason);
	o.m.key ^= 1;
	CHECK_ERRNO(atomic_start(&o, PINMX_ATOMIC_FETCH_ADD, 8, 4, 1, 0, NULL,
				 1, 9), EINVAL);
	CHECK_ERRNO(atomic_start(&o, PINMX_ATOMIC_SWAP, 8, 0, 1, 0, NULL, 2, 9),
		    EINVAL);
	CHECK_ERRNO(atomic_start(&o, 9, 8, 0, 1, 0, NULL, 1, 9), EINVAL);
	if (atomic_padded(&o))
		goto fail;
	CHECK_ERRNO(atomic_start(&o, PINMX_ATOMIC_ACCUMULATE, 8, 0, 0, 0, NULL,
				 180, 9), EINVAL);
	CHECK_ERRNO(atomic_start(&o, PINMX_ATOMIC_ACCUMULATE, 8, 0, 0, 0,
				 (void *)8, 2, 9), EFAULT);
	CHECK(!wait_stopped(o.target), "target ran");
	printf("# target stopped: %llu atomics applied\n",
	       (unsigned long long)(pmx_counter(PINMX_CNT_ATOMICS_APPLIED) -
				    applied0));
	CHECK_OK(kill(o.target, SIGCONT));
	if (put_check_target(&o))
		goto fail;
	return put_origin_close(&o);
fail:
	kill(o.target, SIGKILL);
	waitpid(o.target, NULL, 0);
	return 1;
}

/*
 * Puts and atomics across a veth pair whose both directions lose, duplicate
 * and reorder frames (netem): the puts complete, every fetch-and-add's old
 * value comes back exactly once, and the target's memory is exact: no
 * duplicated request was applied twice.
 */
static int puts_atomics_lossy(struct put_origin *o)
{
	return put_one(o, PAGE + 7, 200 * 1024, 40) || put_one(o, 20, 1, 41) ||
	       fetch_adds(o, 8, 0, 5, 500) ||
	       fetch_adds(o, 4, 8, 3, 200) ||
	       put_check_target(o) || put_origin_close(o);
}

static int test_veth_netem_puts_atomics_once(void)
{
	uint64_t replays0 = pmx_counter(PINMX_CNT_ATOMIC_REPLAYS);
	uint64_t resends0 = pmx_counter(PINMX_CNT_PUT_RESENDS);
	struct put_origin o = { 0 };
	int r = 1;

	CHECK_OK(setup_veth());
	CHECK_OK(run("for s in " NS_A ":vpa " NS_B ":vpb; do "
		     "ip netns exec ${s%:*} tc qdisc add dev ${s#*:} root netem "
		     "delay 1ms reorder 75% loss 2% duplicate 20% || exit 1; done"));
	CHECK_OK(pmx_write_param("pull_resend_ms", "20"));
	if (!put_origin_open_on(&o, 56, true))
		r = puts_atomics_lossy(&o);
	if (r && o.target > 0) {
		kill(o.target, SIGKILL);
		waitpid(o.target, NULL, 0);
	}
	pmx_write_param("pull_resend_ms", "50");
	teardown_veth();
	if (r)
		return r;
	printf("# under netem: %llu atomic replays, %llu put resends\n",
	       (unsigned long long)(pmx_counter(PINMX_CNT_ATOMIC_REPLAYS) - replays0),
	       (unsigned long long)(pmx_counter(PINMX_CNT_PUT_RESENDS) - resends0));
	CHECK(pmx_counter(PINMX_CNT_ATOMIC_REPLAYS) > replays0,
	      "no duplicated atomic seen under netem duplicate 20%%");
	return 0;
}

static int test_wait_ioctl(void)
{
	struct pinmx_wait w = { .timeout_ns = 50000000 };
	int sv[2], fd = pmx_open();
	struct node n = { 0 };
	uint64_t t0;

	CHECK(fd >= 0, "open");
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_WAIT, &w), ENOTCONN);
	close(fd);
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	/* Talk to ourselves: the peer address is our own. */
	if (fork() == 0) {
		struct hello_msg h;

		if (read(sv[1], &h, sizeof(h)) == sizeof(h))
			(void)!write(sv[1], &h, sizeof(h));
		_exit(0);
	}
	if (node_open(&n, "lo", 30, sv[0]))
		return 1;
	wait(NULL);
	t0 = now_ns();
	CHECK_OK(ioctl(n.fd, PINMX_IOC_WAIT, &w));
	CHECK(w.ready == 0 && now_ns() - t0 >= 40000000ULL,
	      "ready %u after %llu ns", w.ready, (unsigned long long)(now_ns() - t0));
	w.pad = 1;
	CHECK_ERRNO(ioctl(n.fd, PINMX_IOC_WAIT, &w), EINVAL);
	w.pad = 0;
	CHECK_OK(send_notify(&n, 1, 0, 0));
	w.timeout_ns = UINT64_MAX;
	CHECK_OK(ioctl(n.fd, PINMX_IOC_WAIT, &w));
	CHECK(w.ready == 1, "ready %u", w.ready);
	node_close(&n);
	return 0;
}

/* A packet socket on lo that sees every MXoE frame; -1 on failure. */
static int mxoe_tap_open(void)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(PINMX_ETH_P_MXOE),
		.sll_ifindex = (int)if_nametoindex("lo"),
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK,
			htons(PINMX_ETH_P_MXOE));

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The first PUT frame from endpoint @src_ep the tap saw, whole (Ethernet
 * header first), into @frame; its length, or 0.
 */
static size_t mxoe_tap_first_put(int tap, uint8_t src_ep, uint8_t *frame,
				 size_t room)
{
	size_t found = 0;
	ssize_t r;

	while ((r = recv(tap, frame + (found ? room / 2 : 0), room / 2, 0)) > 0)
		if (!found && r > 14 + 32 && frame[14] == PINMX_KIND_PUT &&
		    frame[14 + 5] == src_ep)
			found = (size_t)r;
	return found;
}

/*
 * A PUT frame replayed after its put ended and a later put wrote the same
 * bytes is dropped unwritten and counted (put_stale): the target keeps the
 * later put's bytes; without the origin's low mark the replay overwrote
 * them.
 */
static int test_put_stale_duplicate_dropped(void)
{
	const uint64_t roff = 3 * PAGE + 17, len = 700;
	uint8_t frame[2 * 4096];
	struct sockaddr_ll to = { .sll_family = AF_PACKET };
	uint64_t stale0 = pmx_counter(PINMX_CNT_PUT_STALE);
	int tap = mxoe_tap_open();
	struct put_origin o = { 0 };
	size_t flen;
	int i;

	CHECK(tap >= 0, "packet socket on lo: %s", strerror(errno));
	if (put_origin_open(&o, 62) || put_one(&o, roff, len, 40))
		goto fail;
	flen = mxoe_tap_first_put(tap, o.n.index, frame, sizeof(frame));
	CHECK(flen, "no PUT frame of the first put seen on lo");
	if (put_one(&o, roff, len, 41))
		goto fail;
	to.sll_ifindex = (int)if_nametoindex("lo");
	to.sll_protocol = htons(PINMX_ETH_P_MXOE);
	to.sll_halen = 6;
	CHECK(sendto(tap, frame, flen, 0, (struct sockaddr *)&to,
		     sizeof(to)) == (ssize_t)flen, "replay: %s", strerror(errno));
	for (i = 0; i < 500 && pmx_counter(PINMX_CNT_PUT_STALE) == stale0; i++)
		usleep(10000);
	if (put_check_target(&o))
		goto fail;
	CHECK(pmx_counter(PINMX_CNT_PUT_STALE) == stale0 + 1,
	      "put_stale %llu -> %llu after one replay",
	      (unsigned long long)stale0,
	      (unsigned long long)pmx_counter(PINMX_CNT_PUT_STALE));
	if (put_origin_close(&o))
		goto fail;
	close(tap);
	return 0;
fail:
	if (o.target > 0) {
		kill(o.target, SIGKILL);
		waitpid(o.target, NULL, 0);
	}
	close(tap);
	return 1;
}

/* Command @c to the put target (put_target()), answered 'k'. */
static int put_target_do(struct put_origin *o, char c)
{
	char k;

	CHECK(write(o->in, &c, 1) == 1 && read(o->out, &k, 1) == 1 && k == 'k',
	      "put target command %c", c);
	return 0;
}

/* The exposed region's memory as the target sees it must be @want. */
static int put_check_seen(struct put_origin *o, const uint8_t *want)
{
	uint8_t *got = map_anon(PUT_REGION);
	size_t have = 0;
	ssize_t r;

	CHECK(got && write(o->in, "a", 1) == 1, "dump request");
	while (have < PUT_REGION) {
		r = read(o->out, got + have, PUT_REGION - have);
		CHECK(r > 0, "dump read: %zd", r);
		have += r;
	}
	for (size_t i = 0; i < PUT_REGION; i++)
		CHECK(got[i] == want[i], "target sees byte %zu: %#x, expected "
		      "%#x", i, got[i], want[i]);
	munmap(got, PUT_REGION);
	return 0;
}

/*
 * Puts while the target changes the exposed region's mapping. Read-only
 * (mprotect): the put fails SEGMENT_FAULT and writes nothing; writable
 * again: puts complete. Fresh memory mapped over it (MAP_FIXED): puts land
 * there and the old pages (the memfd, seen through a second mapping) keep
 * what they held. A fork sharing it copy-on-write, then the target writing
 * every page: puts land in the memory the target sees, before and after
 * the child is gone.
 */
static int test_put_remapped_target(void)
{
	uint8_t *seen = map_anon(PUT_REGION);
	struct pinmx_pull_event pe;
	struct put_origin o = { 0 };
	bool done;

	CHECK(seen, "map");
	if (put_origin_open(&o, 64) || put_one(&o, 0, PUT_REGION, 30) ||
	    put_target_do(&o, 'r'))
		goto fail;
	fill(o.src, 1000, 31);
	CHECK_OK(put_start(&o, o.m.exposed, o.m.key, 100, 0, 1000, 31));
	if (put_end(&o.n, &pe, &done))
		goto fail;
	CHECK(!done && pe.status == PINMX_PULL_SEGMENT_FAULT &&
	      pe.error == EFAULT, "put into read-only memory: done %d status "
	      "%u error %d", done, pe.status, pe.error);
	if (put_check_target(&o) || put_target_do(&o, 'w') ||
	    put_one(&o, 100, 1000, 32) || put_check_target(&o))
		goto fail;
	fill(seen, PUT_REGION, 3);
	if (put_target_do(&o, 'f') || put_into(&o, 200, 5000, 35, seen) ||
	    put_check_seen(&o, seen) || put_check_target(&o))
		goto fail;
	if (put_target_do(&o, 'c'))
		goto fail;
	for (size_t i = 0; i < PUT_REGION; i += PAGE)
		seen[i]++;
	if (put_into(&o, 300, 3 * PAGE, 36, seen) || put_check_seen(&o, seen) ||
	    put_target_do(&o, 'C') || put_into(&o, 5 * PAGE - 50, 100, 37, seen) ||
	    put_check_seen(&o, seen) || put_origin_close(&o))
		goto fail;
	munmap(seen, PUT_REGION);
	return 0;
fail:
	if (o.target > 0) {
		kill(o.target, SIGKILL);
		waitpid(o.target, NULL, 0);
	}
	return 1;
}

/* A vector pull of the put target's exposed region into @local. */
static int pullv_start(struct put_origin *o, uint32_t local, uint64_t key,
		       const struct pinmx_put_piece *p, uint32_t nr,
		       uint8_t flags)
{
	struct pinmx_pullv req = {
		.peer_endpoint = o->n.peer_index, .flags = flags,
		.peer_session = o->n.peer_session,
		.remote_region = o->m.exposed, .local_region = local,
		.handle = 77, .nr_pieces = nr, .pieces = (uintptr_t)p,
		.remote_key = key,
	};

	memcpy(req.peer_mac, o->n.peer_mac, 6);
	return ioctl(o->n.fd, PINMX_IOC_PULLV, &req);
}

#define PULLV_PIECES	140

/*
 * Pieces of a vector pull: 64 strided ones, one spanning many blocks, the
 * region's last byte, 74 descending small ones. Returns their total.
 */
static uint64_t pullv_pieces(struct pinmx_put_piece *p)
{
	uint64_t total = 0;
	uint32_t i, n = 0;

	for (i = 0; i < 64; i++)
		p[n++] = (struct pinmx_put_piece){ 5 + i * 3001, i * 1000, 1000 };
	p[n++] = (struct pinmx_put_piece){ 60000, 70000, 150000 };
	p[n++] = (struct pinmx_put_piece){ PUT_REGION - 1, 230000, 1 };
	for (i = 0; n < PULLV_PIECES; i++)
		p[n++] = (struct pinmx_put_piece){ 100000 - i * 50,
						   240000 + i * 7, 7 };
	for (i = 0; i < n; i++)
		total += p[i].len;
	return total;
}

/* One vector pull that must complete and place every piece, nothing else. */
static int pullv_exact(struct put_origin *o, uint32_t local, uint8_t *dst,
		       uint8_t flags)
{
	struct pinmx_put_piece p[PULLV_PIECES];
	uint8_t *want = map_anon(PUT_REGION);
	uint64_t total = pullv_pieces(p);
	struct pinmx_pull_event pe;

	CHECK(want, "map");
	fill(dst, PUT_REGION, 99);
	fill(want, PUT_REGION, 99);
	for (uint32_t i = 0; i < PULLV_PIECES; i++)
		memcpy(want + p[i].local_offset, o->model + p[i].remote_offset,
		       p[i].len);
	CHECK_OK(pullv_start(o, local, o->m.key, p, PULLV_PIECES, flags));
	if (pull_end(&o->n, &pe))
		return 1;
	CHECK(pe.status == PINMX_PULL_OK && pe.bytes == total && pe.handle == 77,
	      "flags %u: status %u error %d bytes %llu of %llu", flags,
	      pe.status, pe.error, (unsigned long long)pe.bytes,
	      (unsigned long long)total);
	for (size_t i = 0; i < PUT_REGION; i++)
		CHECK(dst[i] == want[i], "flags %u: local byte %zu: %#x, "
		      "expected %#x", flags, i, dst[i], want[i]);
	munmap(want, PUT_REGION);
	return 0;
}

/* A vector pull that must end with @status, @dst untouched (seed 99). */
static int pullv_refused(struct put_origin *o, uint32_t local, uint8_t *dst,
			 uint64_t key, const struct pinmx_put_piece *p,
			 uint32_t nr, uint8_t flags, uint32_t status)
{
	struct pinmx_pull_event pe;

	fill(dst, PUT_REGION, 99);
	CHECK_OK(pullv_start(o, local, key, p, nr, flags));
	if (pull_end(&o->n, &pe))
		return 1;
	CHECK(pe.status == status, "flags %u: status %u, expected %u (error "
	      "%d, address %llu)", flags, pe.status, status, pe.error,
	      (unsigned long long)pe.address);
	CHECK(status != PINMX_PULL_OUT_OF_RANGE ||
	      pe.address == p[nr - 1].remote_offset,
	      "flags %u: OUT_OF_RANGE names %llu, not the piece at %llu",
	      flags, (unsigned long long)pe.address,
	      (unsigned long long)p[nr - 1].remote_offset);
	return 0;
}

/*
 * PINMX_IOC_PULLV: strided, many-block and descending pieces of a stopped
 * target's exposed region land at their local offsets and nowhere else, on
 * the wire and through the same-interface copy; a piece past the remote
 * region fails OUT_OF_RANGE naming it, a wrong key BAD_KEY; bad requests
 * fail the ioctl with their errno and start nothing.
 */
static int test_pullv_pieces(void)
{
	const uint32_t writable = PINMX_DECLARE_WRITABLE;
	uint64_t local0 = pmx_counter(PINMX_CNT_PULLS_LOCAL);
	struct pinmx_put_piece bad[2] = {
		{ 0, 0, 100 }, { PUT_REGION - 10, 100, 11 },
	};
	struct pinmx_put_piece *many = calloc(PINMX_PULL_MAX_PIECES + 1,
					      sizeof(*many));
	uint8_t *dst = map_anon(PUT_REGION);
	struct put_origin o = { 0 };
	uint32_t local;

	CHECK(dst && many, "map");
	if (put_origin_open(&o, 66))
		goto fail;
	CHECK_OK(pmx_declare1(o.n.fd, dst, PUT_REGION, writable, &local));
	CHECK_OK(kill(o.target, SIGSTOP));
	if (wait_stopped(o.target) ||
	    pullv_exact(&o, local, dst, PINMX_PULL_WIRE) ||
	    pullv_exact(&o, local, dst, 0) ||
	    pullv_refused(&o, local, dst, o.m.key, bad, 2, PINMX_PULL_WIRE,
			  PINMX_PULL_OUT_OF_RANGE) ||
	    pullv_refused(&o, local, dst, o.m.key, bad, 2, 0,
			  PINMX_PULL_OUT_OF_RANGE) ||
	    pullv_refused(&o, local, dst, o.m.key ^ 1, bad, 1, PINMX_PULL_WIRE,
			  PINMX_PULL_BAD_KEY))
		goto fail;
	CHECK(pmx_counter(PINMX_CNT_PULLS_LOCAL) == local0 + 1,
	      "same-interface pulls +%llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_PULLS_LOCAL) - local0));
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, bad, 0, 0), EINVAL);
	for (uint32_t i = 0; i <= PINMX_PULL_MAX_PIECES; i++)
		many[i] = (struct pinmx_put_piece){ i, i, 1 };
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, many,
				PINMX_PULL_MAX_PIECES + 1, 0), E2BIG);
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, bad, 2, 0x80), EINVAL);
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, NULL, 2, 0), EFAULT);
	bad[0].len = 0;
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, bad, 2, 0), EINVAL);
	bad[0] = (struct pinmx_put_piece){ 0, PUT_REGION - 5, 6 };
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, bad, 1, 0), ERANGE);
	bad[0] = (struct pinmx_put_piece){ 1ULL << 63, 0, 6 };
	CHECK_ERRNO(pullv_start(&o, local, o.m.key, bad, 1, 0), EOVERFLOW);
	CHECK(mismatch(dst, PUT_REGION, 99) == PUT_REGION,
	      "a refused pull wrote local byte %zu",
	      mismatch(dst, PUT_REGION, 99));
	CHECK_OK(kill(o.target, SIGCONT));
	free(many);
	return put_origin_close(&o);
fail:
	if (o.target > 0) {
		kill(o.target, SIGKILL);
		waitpid(o.target, NULL, 0);
	}
	free(many);
	return 1;
}

/* Asks the put target for command @c and waits for its 'k'. */
static int put_target_command(struct put_origin *o, char c)
{
	char k;

	CHECK(write(o->in, &c, 1) == 1 && read(o->out, &k, 1) == 1 && k == 'k',
	      "target command %c", c);
	return 0;
}

/*
 * A region its owner holds (PINMX_IOC_HOLD_WRITES) takes no remote write:
 * a put and a fetch-and-add sent meanwhile are answered NACK HELD and wait,
 * resending, far past what pull_max_retries would allow (resends every
 * 10 ms, 2 retries), with the target's memory unchanged; once the region
 * is let in both complete, the fetch-and-add returning the word as it was
 * and the memory holding exactly both. Bad holds are refused with errno.
 */
static int test_put_atomic_held_region(void)
{
	uint64_t held0 = pmx_counter(PINMX_CNT_WRITES_HELD), before;
	uint32_t plain_id, writable_id;
	struct pinmx_atomic_event ae;
	struct pinmx_pull_event pe;
	struct put_origin o;
	int fd = -1, i;
	bool done;

	fd = pmx_open();
	CHECK(fd >= 0, "open");
	CHECK_OK(pmx_declare1(fd, &held0, sizeof(held0), 0, &plain_id));
	CHECK_OK(pmx_declare1(fd, &before, sizeof(before),
			      PINMX_DECLARE_WRITABLE, &writable_id));
	CHECK_ERRNO(hold_writes(fd, plain_id, 1), EINVAL);
	CHECK_ERRNO(hold_writes(fd, writable_id, 0), EINVAL);
	CHECK_ERRNO(hold_writes(fd, 4095, 1), ENOENT);
	{
		struct pinmx_hold_writes bad = { .region_id = plain_id,
						 .hold = 2 };

		CHECK_ERRNO(ioctl(fd, PINMX_IOC_HOLD_WRITES, &bad), EINVAL);
		bad.hold = 1;
		bad.reserved = 1;
		CHECK_ERRNO(ioctl(fd, PINMX_IOC_HOLD_WRITES, &bad), EINVAL);
	}
	close(fd);
	fd = -1;
	if (put_origin_open(&o, 68))
		goto fail;
	CHECK_OK(pmx_write_param("pull_resend_ms", "10"));
	CHECK_OK(pmx_write_param("pull_max_retries", "2"));
	if (put_target_command(&o, 'h') || put_target_command(&o, 'h'))
		goto fail;
	before = model_word(&o, 8 * PAGE, 8);
	fill(o.src, 3000, 31);
	CHECK_OK(put_start(&o, o.m.exposed, o.m.key, 100, 0, 3000, 31));
	CHECK_OK(atomic_start(&o, PINMX_ATOMIC_FETCH_ADD, 8, 8 * PAGE, 5, 0,
			      NULL, 1, 32));
	for (i = 0; i < 5; i++) {
		CHECK(!node_next(&o.n, 100), "an operation ended while held");
		if (put_check_target(&o))
			goto fail;
	}
	CHECK(pmx_counter(PINMX_CNT_WRITES_HELD) >= held0 + 4,
	      "writes_held counted %llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_WRITES_HELD) - held0));
	if (put_target_command(&o, 'o') || put_target_command(&o, 'o'))
		goto fail;
	for (i = 0; i < 2; i++) {
		const struct pinmx_event *ev = node_next(&o.n, 20000);

		CHECK(ev, "no end after the region was let in");
		if (ev->type == PINMX_EVENT_PUT_DONE ||
		    ev->type == PINMX_EVENT_PUT_FAILED) {
			memcpy(&pe, ev + 1, sizeof(pe));
			done = ev->type == PINMX_EVENT_PUT_DONE;
			CHECK(done && pe.status == PINMX_PULL_OK &&
			      pe.handle == 31, "held put: status %u error %d",
			      pe.status, pe.error);
		} else {
			memcpy(&ae, ev + 1, sizeof(ae));
			done = ev->type == PINMX_EVENT_ATOMIC_DONE;
			CHECK(done && ae.status == PINMX_PULL_OK &&
			      ae.handle == 32 && ae.old == before,
			      "held fetch-and-add: type %u status %u old %llu, "
			      "expected %llu", ev->type, ae.status,
			      (unsigned long long)ae.old,
			      (unsigned long long)before);
		}
		node_consume(&o.n);
	}
	memcpy(o.model + 100, o.src, 3000);
	model_set(&o, 8 * PAGE, 8, before + 5);
	pmx_write_param("pull_resend_ms", "50");
	pmx_write_param("pull_max_retries", "8");
	if (put_check_target(&o) || put_one(&o, 5000, 64, 33) ||
	    put_check_target(&o))
		goto fail;
	return put_origin_close(&o);
fail:
	pmx_write_param("pull_resend_ms", "50");
	pmx_write_param("pull_max_retries", "8");
	if (fd >= 0)
		close(fd);
	if (o.target > 0) {
		kill(o.target, SIGKILL);
		waitpid(o.target, NULL, 0);
	}
	return 1;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "net_wait_ioctl", test_wait_ioctl },
	{ "net_pull_key_checked_refusals_counted_memory_untouched",
	  test_pull_key_checked },
	{ "net_put_stopped_target_completes_memory_exact",
	  test_put_stopped_target },
	{ "net_put_after_munmap_segment_fault_no_stale_write",
	  test_put_munmap_segment_fault },
	{ "net_put_stale_duplicate_dropped_later_bytes_kept",
	  test_put_stale_duplicate_dropped },
	{ "net_put_mprotect_map_fixed_fork_cow_lands_where_target_sees",
	  test_put_remapped_target },
	{ "net_pullv_strided_vector_pieces_exact_refusals",
	  test_pullv_pieces },
	{ "net_putv_stopped_target_strided_and_vector_exact",
	  test_putv_stopped_target },
	{ "net_put_racing_munmap_no_write_after_it_pins_released",
	  test_put_munmap_during_put },
	{ "net_atomics_stopped_target_every_old_value_memory_exact",
	  test_atomics_stopped_target },
	{ "net_held_region_put_atomic_wait_then_land_exact",
	  test_put_atomic_held_region },
	{ "net_veth_netem_dup_reorder_loss_puts_atomics_applied_once",
	  test_veth_netem_puts_atomics_once },
	{ "net_lo_eager_and_pull_0B_to_64MiB_wire", test_lo_transfers_wire },
	{ "net_lo_eager_and_pull_0B_to_64MiB_local_copy",
	  test_lo_transfers_local_copy },
	{ "net_veth_netns_eager_and_pull_0B_to_64MiB", test_veth_transfers },
	{ "net_veth_same_interface_eager_and_wire_pull_0B_to_16MiB",
	  test_veth_same_interface_transfers },
	{ "net_veth_self_send_eager_bytes_exact", test_veth_self_send },
	{ "net_veth_netem_loss_1pct_pull_32KiB_to_16MiB",
	  test_veth_netem_loss_transfers },
	{ "net_overlap_miss_slow_pinning_data_right",
	  test_overlap_miss_slow_pinning },
	{ "net_killed_peer_mid_pull_error_event_pins_released",
	  test_killed_peer_mid_pull },
	{ "net_pull_errors_reported", test_pull_errors_reported },
	{ "net_pull_cancel_ends_once_no_byte_after_pins_released",
	  test_pull_cancel },
	{ "net_refault_mprotect_20_rounds_new_data_exact",
	  test_refault_mprotect },
	{ "net_refault_memfd_truncate_20_rounds_new_data_exact",
	  test_refault_memfd_truncate },
	{ "net_refault_hole_mmap_fixed_20_rounds_new_data_exact",
	  test_refault_hole_mmap_fixed },
	{ "net_pull_from_exited_process_esrch_event",
	  test_pull_from_exited_process },
	{ "net_pulls_while_region_ids_reused_data_exact",
	  test_pulls_while_ids_reused },
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name))
			return tests[i].fn() ? 1 : 0;
	fprintf(stderr, "usage: %s --list | TEST\n", argv[0]);
	return 2;
}
