// SPDX-License-Identifier: GPL-2.0
/*
 * pinmx benchmark, run inside the test VM with pinmx.ko loaded.
 *
 * 1. Pin cost per page, 4 KiB .. 64 MiB: pinmx PIN+UNPIN of a declared
 *    region and pinmx declare(pin at declaration)+destroy, next to io_uring
 *    IORING_REGISTER_BUFFERS+UNREGISTER of the same buffer, same boot.
 * 2. Copy throughput region to region: pin per copy (declare pinning all,
 *    copy, destroy), cached declared region (pinned once, reused), and
 *    overlapped pinning per copy (declare, copy while the worker pins,
 *    destroy). Ratios are against pin per copy measured in the same run.
 *    Twice: over memory as the kernel gives it (transparent huge pages:
 *    a 2 MiB folio pins almost as cheaply as a 4 KiB page) and over 4 KiB
 *    pages only (MADV_NOHUGEPAGE), where pinning costs per page.
 *
 * 3. Pull throughput between two endpoints on lo: PULL/PULL_REPLY frames
 *    through the network stack (PINMX_PULL_WIRE) against the same-interface
 *    bypass (one region-to-region copy), both regions declared once.
 *
 * Timings under TCG are not absolute; read the ratios.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../tests/pinmx_test.h"

#define KiB	1024UL
#define MiB	(1024UL * 1024)

static const size_t pin_sizes[] = {
	4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB,
};
static const size_t copy_sizes[] = {
	64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB,
};
static const size_t pull_sizes[] = { 64 * KiB, MiB, 4 * MiB, 16 * MiB };

static void die(const char *what)
{
	fprintf(stderr, "pinmx-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *map_touched(size_t len)
{
	char *p = map_anon(len);

	if (!p)
		die("mmap");
	memset(p, 1, len);
	return p;
}

/* As map_touched(), never backed by huge pages. */
static char *map_touched_small(size_t len)
{
	char *p = map_anon(len);

	if (!p || madvise(p, len, MADV_NOHUGEPAGE))
		die("mmap");
	memset(p, 1, len);
	return p;
}

/* Repetitions so one cell handles about 128 MiB, between 3 and 1000. */
static unsigned int reps_for(size_t len)
{
	size_t r = 128 * MiB / len;

	return r < 3 ? 3 : r > 1000 ? 1000 : (unsigned int)r;
}

/*
 * The methods of one row run interleaved, one repetition of each in turn,
 * so drift in the shared host's load hits them alike.
 */
#define MAX_REPS	1024

/* Columns of the pin cost table, each timed on its own. */
enum pin_col {
	PIN_UNPIN,	/* PIN + UNPIN of a declared region: two ioctls */
	DECLARE,	/* DECLARE pinning all: one ioctl */
	DESTROY,	/* DESTROY: one ioctl, unpins */
	URING_REG,	/* IORING_REGISTER_BUFFERS: pins */
	URING_UNREG,	/* IORING_UNREGISTER_BUFFERS: unpins */
	PIN_COLS
};

struct pin_row {
	int fd, fd_decl;
	struct io_uring *ring;
	char *buf;
	size_t len;
	uint32_t id;
	unsigned int rep;
	uint64_t ns[PIN_COLS][MAX_REPS];
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median of @n samples: robust against the shared host's load spikes. */
static double median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static int pin_round(struct pin_row *row)
{
	struct iovec iov = { .iov_base = row->buf, .iov_len = row->len };
	uint64_t t[PIN_COLS + 1];
	uint32_t id;
	int r;

	t[0] = now_ns();
	if (pmx_range(row->fd, PINMX_IOC_PIN, row->id, 0, row->len) ||
	    pmx_range(row->fd, PINMX_IOC_UNPIN, row->id, 0, row->len))
		die("pin/unpin");
	t[1] = now_ns();
	if (pmx_declare1(row->fd_decl, row->buf, row->len, 0, &id))
		die("declare");
	t[2] = now_ns();
	if (pmx_destroy(row->fd_decl, id))
		die("destroy");
	t[3] = now_ns();
	if (row->ring) {
		r = io_uring_register_buffers(row->ring, &iov, 1);
		if (r < 0) {
			printf("# io_uring_register_buffers: %s\n", strerror(-r));
			return -1;
		}
		t[4] = now_ns();
		io_uring_unregister_buffers(row->ring);
		t[5] = now_ns();
	} else {
		t[4] = t[5] = t[3];
	}
	for (r = 0; r < PIN_COLS; r++)
		row->ns[r][row->rep] = t[r + 1] - t[r];
	return 0;
}

static void bench_pin_cost(void)
{
	static struct pin_row row;
	struct io_uring ring;
	size_t i;

	row.fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	row.fd_decl = pmx_open_mode(PINMX_PIN_DECLARE);
	if (row.fd < 0 || row.fd_decl < 0)
		die("open /dev/pinmx");
	row.ring = io_uring_queue_init(4, &ring, 0) ? NULL : &ring;
	printf("# pin cost per 4 KiB page, ns, median of interleaved repetitions\n"
	       "# pin+unpin: PIN and UNPIN ioctls on a declared region; declare: DECLARE pinning the\n"
	       "# whole region (allocation, MMU notifier, pin, id); destroy: DESTROY (notifier removed,\n"
	       "# unpin, free); reg/unreg: IORING_REGISTER_BUFFERS / UNREGISTER_BUFFERS of one buffer.\n"
	       "# Unregistering waits for the ring's users of the buffer table to go: on 6.1 through\n"
	       "# a percpu reference whose kill waits for an RCU grace period, so decl/reg (pinning\n"
	       "# side, like with like) is the ratio to read there; d+d/uring compares both whole cycles.\n");
	printf("%9s %5s %4s %9s %8s %8s %8s %8s %9s %8s %10s\n", "bytes",
	       "pages", "reps", "pin+unpin", "declare", "destroy", "reg",
	       "unreg", "pin/uring", "decl/reg", "d+d/uring");
	for (i = 0; i < sizeof(pin_sizes) / sizeof(pin_sizes[0]); i++) {
		unsigned int c, r, reps = reps_for(pin_sizes[i]) / 8 + 5;
		double pages = (double)(pin_sizes[i] / PAGE);
		double m[PIN_COLS];

		row.len = pin_sizes[i];
		row.buf = map_touched(row.len);
		if (pmx_declare1(row.fd, row.buf, row.len, 0, &row.id))
			die("declare");
		row.rep = 0;
		if (pin_round(&row))	/* warm-up */
			row.ring = NULL;
		for (r = 0; r < reps; r++) {
			row.rep = r;
			if (pin_round(&row))
				row.ring = NULL;
		}
		pmx_destroy(row.fd, row.id);
		munmap(row.buf, row.len);
		for (c = 0; c < PIN_COLS; c++)
			m[c] = median(row.ns[c], reps) / pages;
		printf("%9zu %5.0f %4u %9.0f %8.0f %8.0f", row.len, pages, reps,
		       m[PIN_UNPIN], m[DECLARE], m[DESTROY]);
		if (row.ring)
			printf(" %8.0f %8.0f %9.3f %8.3f %10.3f\n", m[URING_REG],
			       m[URING_UNREG],
			       m[PIN_UNPIN] / (m[URING_REG] + m[URING_UNREG]),
			       m[DECLARE] / m[URING_REG],
			       (m[DECLARE] + m[DESTROY]) /
			       (m[URING_REG] + m[URING_UNREG]));
		else
			printf(" %8s %8s %9s %8s %10s\n", "n/a", "n/a", "n/a",
			       "n/a", "n/a");
	}
	if (row.ring)
		io_uring_queue_exit(row.ring);
	close(row.fd);
	close(row.fd_decl);
}

/* One copy through freshly declared regions of endpoint @fd's mode. */
static void copy_fresh(int fd, char *src, char *dst, size_t len)
{
	uint32_t s, d;

	if (pmx_declare1(fd, src, len, 0, &s) ||
	    pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &d) ||
	    pmx_copy(fd, -1, s, 0, d, 0, len))
		die("declare/copy");
	pmx_destroy(fd, s);
	pmx_destroy(fd, d);
}

static double mbps(size_t len, double ns)
{
	return (double)len / ns * 1e3;
}

static void bench_copy(bool small_pages)
{
	int per_copy = pmx_open_mode(PINMX_PIN_DECLARE);
	int cached = pmx_open_mode(PINMX_PIN_DECLARE);
	int overlapped = pmx_open_mode(PINMX_PIN_OVERLAPPED);
	size_t i;

	if (per_copy < 0 || cached < 0 || overlapped < 0)
		die("open /dev/pinmx");
	printf("\n# region-to-region copy over %s, MB/s (1e6 B/s), median of interleaved repetitions;\n"
	       "# cached/x, overlap/x = speed-up vs pin per copy (x); ovl/cached = overlapped speed / cached speed.\n"
	       "# Pin per copy and overlapped both declare, pin, copy and destroy (unpin) every time; cached\n"
	       "# only copies, so cached/x is the most overlap/x can reach, with all of pinning hidden.\n",
	       small_pages ? "4 KiB pages only (MADV_NOHUGEPAGE)" :
	       "memory as the kernel gives it (transparent huge pages where it can)");
	printf("%10s %5s %10s %10s %11s %9s %10s %10s\n", "bytes", "reps",
	       "pin/copy", "cached", "overlapped", "cached/x", "overlap/x",
	       "ovl/cached");
	for (i = 0; i < sizeof(copy_sizes) / sizeof(copy_sizes[0]); i++) {
		size_t len = copy_sizes[i];
		unsigned int r, reps = reps_for(len) / 4 + 5;
		char *src = small_pages ? map_touched_small(len) : map_touched(len);
		char *dst = small_pages ? map_touched_small(len) : map_touched(len);
		static uint64_t ns[3][MAX_REPS];
		double a, b, c;
		uint64_t t0, t1, t2;
		uint32_t s, d;

		if (pmx_declare1(cached, src, len, 0, &s) ||
		    pmx_declare1(cached, dst, len, PINMX_DECLARE_WRITABLE, &d))
			die("declare");
		copy_fresh(per_copy, src, dst, len);	/* warm-up */
		copy_fresh(overlapped, src, dst, len);
		for (r = 0; r < reps; r++) {
			t0 = now_ns();
			copy_fresh(per_copy, src, dst, len);
			t1 = now_ns();
			if (pmx_copy(cached, -1, s, 0, d, 0, len))
				die("copy");
			t2 = now_ns();
			copy_fresh(overlapped, src, dst, len);
			ns[0][r] = t1 - t0;
			ns[1][r] = t2 - t1;
			ns[2][r] = now_ns() - t2;
		}
		a = median(ns[0], reps);
		b = median(ns[1], reps);
		c = median(ns[2], reps);
		pmx_destroy(cached, s);
		pmx_destroy(cached, d);
		printf("%10zu %5u %10.0f %10.0f %11.0f %9.2f %10.2f %10.2f\n",
		       len, reps, mbps(len, a), mbps(len, b), mbps(len, c),
		       a / b, a / c, b / c);
		munmap(src, len);
		munmap(dst, len);
	}
	close(per_copy);
	close(cached);
	close(overlapped);
}

/* An endpoint bound to lo with its event ring mapped. */
struct bench_ep {
	int fd;
	struct pinmx_bind bind;
	struct pinmx_ring_ctl *ring;
};

static void bench_ep_open(struct bench_ep *ep, uint32_t index)
{
	struct pinmx_attach at = { .ifname = "lo" };

	ep->fd = pmx_open();
	memset(&ep->bind, 0, sizeof(ep->bind));
	strcpy(ep->bind.ifname, "lo");
	ep->bind.index = index;
	if (ep->fd < 0 || ioctl(ep->fd, PINMX_IOC_ATTACH, &at) ||
	    ioctl(ep->fd, PINMX_IOC_BIND, &ep->bind))
		die("endpoint on lo");
	ep->ring = mmap(NULL, PINMX_RING_BYTES, PROT_READ | PROT_WRITE,
			MAP_SHARED, ep->fd, 0);
	if (ep->ring == MAP_FAILED)
		die("mmap ring");
}

/* Pull @len bytes of @src's region into @dst's, wait for the end event. */
static void pull_once(struct bench_ep *dst, uint32_t dregion,
		      const struct bench_ep *src, uint32_t sregion, size_t len,
		      uint32_t flags)
{
	struct pinmx_pull req = {
		.peer_endpoint = src->bind.index, .flags = flags,
		.peer_session = src->bind.session, .remote_region = sregion,
		.local_region = dregion, .length = len,
	};
	struct pinmx_wait w = { .timeout_ns = 60000000000ULL };
	const struct pinmx_event *ev;
	uint32_t cons = dst->ring->consumer;

	memcpy(req.peer_mac, src->bind.mac, 6);
	if (ioctl(dst->fd, PINMX_IOC_PULL, &req))
		die("pull");
	while (__atomic_load_n(&dst->ring->producer, __ATOMIC_ACQUIRE) == cons)
		if (ioctl(dst->fd, PINMX_IOC_WAIT, &w) || !w.ready)
			die("wait for the pull's end");
	ev = (const void *)((char *)dst->ring + PINMX_RING_CTL_BYTES +
			    (cons % PINMX_RING_SLOTS) * PINMX_RING_SLOT_BYTES);
	if (ev->type != PINMX_EVENT_PULL_DONE)
		die("pull failed");
	__atomic_store_n(&dst->ring->consumer, cons + 1, __ATOMIC_RELEASE);
}

static void bench_pull(void)
{
	struct bench_ep a, b;
	size_t i;

	bench_ep_open(&a, 201);
	bench_ep_open(&b, 202);
	printf("\n# pull on lo, MB/s, median of interleaved repetitions, regions declared once; ratio = bypass vs frames\n");
	printf("%10s %5s %10s %10s %9s\n", "bytes", "reps", "frames", "bypass",
	       "bypass/x");
	for (i = 0; i < sizeof(pull_sizes) / sizeof(pull_sizes[0]); i++) {
		size_t len = pull_sizes[i];
		unsigned int r, reps = reps_for(len) / 4 + 5;
		char *src = map_touched(len), *dst = map_touched(len);
		static uint64_t ns[2][MAX_REPS];
		double wire, local;
		uint64_t t0, t1;
		uint32_t s, d;

		if (pmx_declare1(a.fd, src, len, 0, &s) ||
		    pmx_declare1(b.fd, dst, len, PINMX_DECLARE_WRITABLE, &d))
			die("declare");
		pull_once(&b, d, &a, s, len, PINMX_PULL_WIRE);	/* warm-up */
		pull_once(&b, d, &a, s, len, 0);
		for (r = 0; r < reps; r++) {
			t0 = now_ns();
			pull_once(&b, d, &a, s, len, PINMX_PULL_WIRE);
			t1 = now_ns();
			pull_once(&b, d, &a, s, len, 0);
			ns[0][r] = t1 - t0;
			ns[1][r] = now_ns() - t1;
		}
		wire = median(ns[0], reps);
		local = median(ns[1], reps);
		printf("%10zu %5u %10.0f %10.0f %9.2f\n", len, reps,
		       mbps(len, wire), mbps(len, local), wire / local);
		pmx_destroy(a.fd, s);
		pmx_destroy(b.fd, d);
		munmap(src, len);
		munmap(dst, len);
	}
	munmap(a.ring, PINMX_RING_BYTES);
	munmap(b.ring, PINMX_RING_BYTES);
	close(a.fd);
	close(b.fd);
}

/* A read-only module parameter the module measures, if it has it. */
static void print_param(const char *name, const char *what)
{
	char path[96], value[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/pinmx/parameters/%s", name);
	f = fopen(path, "r");
	if (f && fgets(value, sizeof(value), f))
		printf("# %s: %s", what, value);
	if (f)
		fclose(f);
}

int main(void)
{
	struct pinmx_counters cnt;
	int fd = pmx_open();

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fd < 0)
		die("open /dev/pinmx (is pinmx.ko loaded?)");
	close(fd);
	bench_pin_cost();
	bench_copy(false);
	bench_copy(true);
	bench_pull();
	fd = open("/dev/pinmx", O_RDWR);
	if (fd >= 0 && !ioctl(fd, PINMX_IOC_COUNTERS, &cnt))
		printf("\n# overlap waits during the run: %llu\n",
		       (unsigned long long)cnt.value[PINMX_CNT_OVERLAP_WAITS]);
	print_param("worker_start_ns",
		    "overlapped pin worker start, kick to running, ns (moving average)");
	return 0;
}
