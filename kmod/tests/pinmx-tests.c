// SPDX-License-Identifier: GPL-2.0
/*
 * pinmx C tests. `pinmx-tests --list` prints the test names, `pinmx-tests
 * NAME` runs one and exits 0 if it passed; run-guest-tests.sh turns that
 * into TAP. Diagnostics are printed as TAP comments (lines starting "# ").
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/socket.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pinmx_test.h"

#define MiB	(1024UL * 1024)
#define BUDGET_PARAM	"/sys/module/pinmx/parameters/budget_pages"

static int test_abi_hello(void)
{
	struct pinmx_hello hello = { .abi_version = PINMX_ABI_VERSION + 1 };
	struct pinmx_info info;
	uint32_t id;
	int fd, fd2;

	fd = open("/dev/pinmx", O_RDWR);
	CHECK(fd >= 0, "open /dev/pinmx: %s", strerror(errno));
	CHECK_OK(ioctl(fd, PINMX_IOC_INFO, &info));
	CHECK(info.abi_version == PINMX_ABI_VERSION, "abi %u", info.abi_version);
	CHECK(info.page_size == PAGE, "page size %u", info.page_size);
	CHECK(info.endpoint_id == 0, "id %u before hello", info.endpoint_id);
	CHECK(info.max_segments == PINMX_MAX_SEGMENTS, "%u", info.max_segments);
	CHECK(info.max_region_bytes == PINMX_MAX_REGION_BYTES, "%llu",
	      (unsigned long long)info.max_region_bytes);
	CHECK((info.features & 0x3f) == 0x3f, "features %#llx",
	      (unsigned long long)info.features);
	CHECK((info.features >> 16 & 0x3f) == 0x3f, "net features %#llx",
	      (unsigned long long)info.features);
	CHECK_ERRNO(pmx_declare1(fd, &info, sizeof(info), 0, &id), EBADFD);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_HELLO, &hello), EPROTONOSUPPORT);
	hello.abi_version = 0;
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_HELLO, &hello), EPROTONOSUPPORT);
	hello.abi_version = PINMX_ABI_VERSION;
	hello.reserved = 1;
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_HELLO, &hello), EINVAL);
	hello.reserved = 0;
	CHECK_OK(ioctl(fd, PINMX_IOC_HELLO, &hello));
	CHECK(hello.endpoint_id > 0, "endpoint id %u", hello.endpoint_id);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_HELLO, &hello), EALREADY);
	CHECK_OK(ioctl(fd, PINMX_IOC_INFO, &info));
	CHECK(info.endpoint_id == hello.endpoint_id, "info id %u",
	      info.endpoint_id);
	fd2 = pmx_open();
	CHECK(fd2 >= 0, "second endpoint: %s", strerror(errno));
	CHECK_OK(ioctl(fd2, PINMX_IOC_INFO, &info));
	CHECK(info.endpoint_id != hello.endpoint_id, "ids not distinct");
	close(fd2);
	close(fd);
	return 0;
}

static int test_declare_destroy(void)
{
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	struct pinmx_region_info ri;
	struct pinmx_segment segs[3];
	char *buf = map_anon(8 * PAGE);
	uint32_t id, n;
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);

	CHECK(fd >= 0 && buf, "setup: %s", strerror(errno));
	segs[0] = (struct pinmx_segment){ (uintptr_t)buf + 100, 50 };
	segs[1] = (struct pinmx_segment){ (uintptr_t)buf + PAGE - 1, 2 };
	segs[2] = (struct pinmx_segment){ (uintptr_t)buf + 3 * PAGE, 3 * PAGE };
	CHECK_OK(pmx_declare(fd, segs, 3, 0, &id));
	CHECK(id >= 1, "id %u", id);
	CHECK_OK(pmx_region_info(fd, id, &ri));
	CHECK(ri.nr_segments == 3 && ri.length == 50 + 2 + 3 * PAGE,
	      "segments %u length %llu", ri.nr_segments,
	      (unsigned long long)ri.length);
	CHECK(ri.nr_pages == 1 + 2 + 3, "pages %llu",
	      (unsigned long long)ri.nr_pages);
	CHECK(ri.pinned_pages == 0, "pinned %llu at declare",
	      (unsigned long long)ri.pinned_pages);
	CHECK(ri.pin_mode == PINMX_PIN_ON_DEMAND, "mode %u", ri.pin_mode);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0 + 1, "regions_now");
	CHECK_OK(pmx_destroy(fd, id));
	CHECK_ERRNO(pmx_region_info(fd, id, &ri), ENOENT);
	CHECK_ERRNO(pmx_destroy(fd, id), ENOENT);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0, "regions_now");

	for (n = 0; n < PINMX_MAX_REGIONS; n++)
		CHECK(!pmx_declare1(fd, buf, PAGE, 0, &id),
		      "declare %u: %s", n, strerror(errno));
	CHECK_ERRNO(pmx_declare1(fd, buf, PAGE, 0, &id), ENOSPC);
	CHECK_OK(pmx_destroy(fd, id));
	CHECK_OK(pmx_declare1(fd, buf, PAGE, 0, &id));
	close(fd);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0,
	      "close left regions");
	munmap(buf, 8 * PAGE);
	return 0;
}

static int test_on_demand_pins_only_used(void)
{
	uint64_t now0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	size_t len = 16 * MiB;
	char *src = map_anon(len), *dst = map_anon(len);
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	uint32_t s, d;

	CHECK(fd >= 0 && src && dst, "setup: %s", strerror(errno));
	fill(src, len, 7);
	CHECK_OK(pmx_declare1(fd, src, len, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 5 * MiB + 10, d, 3, 100));
	CHECK(pmx_pinned(fd, s) == 1 && pmx_pinned(fd, d) == 1,
	      "pinned %llu/%llu after a 100-byte copy",
	      (unsigned long long)pmx_pinned(fd, s),
	      (unsigned long long)pmx_pinned(fd, d));
	CHECK(!memcmp(dst + 3, src + 5 * MiB + 10, 100), "content");
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == now0 + 2,
	      "pages_pinned_now moved by %lld",
	      (long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - now0));
	CHECK_OK(pmx_copy(fd, -1, s, 8 * MiB - 50, d, 9 * MiB - 70, 100));
	CHECK(pmx_pinned(fd, s) == 3 && pmx_pinned(fd, d) == 3,
	      "pinned %llu/%llu after a page-crossing copy",
	      (unsigned long long)pmx_pinned(fd, s),
	      (unsigned long long)pmx_pinned(fd, d));
	CHECK(!memcmp(dst + 9 * MiB - 70, src + 8 * MiB - 50, 100), "content");
	CHECK(vm_pinned_kb() == 6 * 4, "VmPin %ld kB", vm_pinned_kb());
	CHECK_OK(pmx_range(fd, PINMX_IOC_UNPIN, s, 0, len));
	CHECK(pmx_pinned(fd, s) == 0, "unpin left %llu",
	      (unsigned long long)pmx_pinned(fd, s));
	CHECK_OK(pmx_range(fd, PINMX_IOC_PIN, s, MiB + 1, MiB));
	CHECK(pmx_pinned(fd, s) == 257, "explicit pin %llu",
	      (unsigned long long)pmx_pinned(fd, s));
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after close", vm_pinned_kb());
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == now0, "pinned_now");
	return 0;
}

static int test_declare_mode(void)
{
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	char *buf = map_anon(2 * MiB);
	char *hole = map_anon(4 * PAGE);
	struct pinmx_segment segs[2];
	int fd = pmx_open_mode(PINMX_PIN_DECLARE);
	uint32_t id;

	CHECK(fd >= 0 && buf && hole, "setup: %s", strerror(errno));
	CHECK_OK(pmx_declare1(fd, buf + 10, MiB, 0, &id));
	CHECK(pmx_pinned(fd, id) == 257, "pinned %llu at declare",
	      (unsigned long long)pmx_pinned(fd, id));
	CHECK(vm_pinned_kb() == 257 * 4, "VmPin %ld kB", vm_pinned_kb());
	munmap(hole + PAGE, PAGE);
	segs[0] = (struct pinmx_segment){ (uintptr_t)buf, PAGE };
	segs[1] = (struct pinmx_segment){ (uintptr_t)hole, 3 * PAGE };
	CHECK_ERRNO(pmx_declare(fd, segs, 2, 0, &id), EFAULT);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0 + 1,
	      "failed declaration left a region");
	CHECK(vm_pinned_kb() == 257 * 4, "VmPin %ld kB", vm_pinned_kb());
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after close", vm_pinned_kb());
	return 0;
}

/* Copy @len bytes at unaligned edges through overlapped regions; check. */
static int overlapped_case(int fd, size_t len, size_t soff, size_t doff)
{
	size_t smap = len + soff + 2 * PAGE, dmap = len + doff + 2 * PAGE;
	char *sbase = map_anon(smap), *dbase = map_anon(dmap);
	char *src = sbase + PAGE + soff, *dst = dbase + PAGE + doff;
	struct pinmx_region_info ri;
	uint32_t s, d;
	size_t bad;

	CHECK(sbase && dbase, "mmap %zu: %s", len, strerror(errno));
	fill(src, len, (uint32_t)len);
	memset(dbase, 0xa5, dmap);
	CHECK_OK(pmx_declare1(fd, src, len, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, len));
	bad = mismatch(dst, len, (uint32_t)len);
	CHECK(bad == len, "len %zu: byte %zu differs", len, bad);
	CHECK((uint8_t)dst[-1] == 0xa5 && (uint8_t)dst[len] == 0xa5,
	      "len %zu: wrote outside the destination", len);
	CHECK_OK(pmx_region_info(fd, s, &ri));
	CHECK(ri.pinned_pages == ri.nr_pages, "len %zu: %llu of %llu pinned",
	      len, (unsigned long long)ri.pinned_pages,
	      (unsigned long long)ri.nr_pages);
	CHECK_OK(pmx_destroy(fd, s));
	CHECK_OK(pmx_destroy(fd, d));
	munmap(sbase, smap);
	munmap(dbase, dmap);
	return 0;
}

static int test_overlapped_copy_sizes(void)
{
	static const size_t sizes[][3] = {
		{ PAGE, 0, 0 }, { PAGE, 1, 4095 }, { 3 * PAGE + 17, 123, 7 },
		{ 64 * 1024 - 1, 4095, 1 }, { MiB + 4095, 2048, 3000 },
		{ 16 * MiB + 123, 5, 4000 }, { 64 * MiB, 1, 4095 },
	};
	int fd = pmx_open();
	size_t i;

	CHECK(fd >= 0, "open: %s", strerror(errno));
	CHECK_OK(pmx_set_mode(fd, PINMX_PIN_OVERLAPPED, 4, 512));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (overlapped_case(fd, sizes[i][0], sizes[i][1], sizes[i][2]))
			return 1;
	close(fd);
	return 0;
}

/*
 * A copy pins in line what the worker has not reached and waits, chunk by
 * chunk, where the worker is ahead: a first copy of the head kicks the
 * workers from its end, slow pins (pin_delay_us) keep them busy, and once
 * they run, a copy of the whole region catches up with them.
 */
static int overlapped_worker_ahead(int fd, char *src, char *dst, size_t len)
{
	uint64_t waits0 = pmx_counter(PINMX_CNT_OVERLAP_WAITS);
	uint64_t deadline = now_ns() + 10 * 1000000000ull;
	struct pinmx_region_info ri = { 0 };
	size_t head = 64 * PAGE, bad;
	uint32_t s, d;

	CHECK_OK(pmx_declare1(fd, src, len, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, head));
	while (!pmx_region_info(fd, s, &ri) &&
	       ri.pinned_pages <= head / PAGE && now_ns() < deadline)
		usleep(1000);
	CHECK(ri.pinned_pages > head / PAGE,
	      "the worker pinned nothing past the head in 10 s");
	CHECK(ri.pinned_pages < len / PAGE,
	      "the worker pinned all %zu pages before the copy", len / PAGE);
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, len));
	bad = mismatch(dst, len, 7);
	CHECK(bad == len, "byte %zu differs", bad);
	CHECK(pmx_counter(PINMX_CNT_OVERLAP_WAITS) > waits0,
	      "the copy never waited for the worker ahead of it");
	CHECK_OK(pmx_region_info(fd, d, &ri));
	CHECK(ri.pinned_pages == len / PAGE, "%llu of %zu destination pages",
	      (unsigned long long)ri.pinned_pages, len / PAGE);
	return 0;
}

static int test_overlapped_worker_ahead(void)
{
	size_t len = 4 * MiB;
	char *src = map_anon(len), *dst = map_anon(len);
	int fd = pmx_open(), r;

	CHECK(fd >= 0 && src && dst, "setup: %s", strerror(errno));
	fill(src, len, 7);
	CHECK_OK(pmx_set_mode(fd, PINMX_PIN_OVERLAPPED, 4, 16));
	CHECK_OK(pmx_write_param("pin_delay_us", "5000"));
	r = overlapped_worker_ahead(fd, src, dst, len);
	CHECK_OK(pmx_write_param("pin_delay_us", "0"));
	close(fd);
	munmap(src, len);
	munmap(dst, len);
	return r;
}

static int test_multi_segment_copy(void)
{
	static const size_t slen[] = { 1, 4095, 4097, 70000, 3, 200000 };
	static const size_t dlen[] = { 10000, 1, 100000, 168195 };
	struct pinmx_segment ss[6], ds[4];
	size_t total = 0, dtotal = 0, i, off;
	char *expect, *got;
	uint32_t s, d;
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);

	CHECK(fd >= 0, "open: %s", strerror(errno));
	for (i = 0; i < 6; i++)
		total += slen[i];
	for (i = 0; i < 4; i++)
		dtotal += dlen[i];
	CHECK(total == dtotal, "test tables disagree: %zu %zu", total, dtotal);
	expect = malloc(total);
	got = malloc(total);
	CHECK(expect && got, "malloc");
	fill(expect, total, 99);
	for (i = 0, off = 0; i < 6; i++) {
		char *m = map_anon(slen[i] + 2 * PAGE);

		CHECK(m, "mmap");
		memcpy(m + 1 + i * 300, expect + off, slen[i]);
		ss[i] = (struct pinmx_segment){ (uintptr_t)m + 1 + i * 300,
						slen[i] };
		off += slen[i];
	}
	for (i = 0; i < 4; i++) {
		char *m = map_anon(dlen[i] + 2 * PAGE);

		CHECK(m, "mmap");
		ds[i] = (struct pinmx_segment){ (uintptr_t)m + 4093 - i, dlen[i] };
	}
	CHECK_OK(pmx_declare(fd, ss, 6, 0, &s));
	CHECK_OK(pmx_declare(fd, ds, 4, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, total));
	for (i = 0, off = 0; i < 4; i++) {
		memcpy(got + off, (void *)(uintptr_t)ds[i].vaddr, dlen[i]);
		off += dlen[i];
	}
	CHECK(!memcmp(got, expect, total), "vector copy content");
	memset((void *)(uintptr_t)ds[2].vaddr, 0, dlen[2]);
	CHECK_OK(pmx_copy(fd, -1, s, 5000, d, 10001, 100000));
	CHECK(!memcmp((void *)(uintptr_t)ds[2].vaddr, expect + 5000, 100000),
	      "sliced copy content");
	close(fd);
	free(expect);
	free(got);
	return 0;
}

/*
 * Registration-cache battery: a region over @len bytes at @addr, copied
 * to a destination region before and after @event changed the memory
 * behind the address; the second copy must see @seed2's content.
 */
struct cache_case {
	int fd;
	uint32_t src, dst;
	char *dst_buf;
	size_t len;
	uint64_t inval0;
};

static int cache_setup(struct cache_case *c, void *addr, size_t len,
		       uint32_t seed)
{
	c->len = len;
	c->fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	c->dst_buf = map_anon(len);
	CHECK(c->fd >= 0 && c->dst_buf, "setup: %s", strerror(errno));
	fill(addr, len, seed);
	CHECK_OK(pmx_declare1(c->fd, addr, len, 0, &c->src));
	CHECK_OK(pmx_declare1(c->fd, c->dst_buf, len, PINMX_DECLARE_WRITABLE,
			      &c->dst));
	CHECK_OK(pmx_copy(c->fd, -1, c->src, 0, c->dst, 0, len));
	CHECK(mismatch(c->dst_buf, len, seed) == len, "first copy content");
	c->inval0 = pmx_counter(PINMX_CNT_INVALIDATIONS);
	return 0;
}

static int cache_check(struct cache_case *c, uint32_t seed)
{
	size_t bad;

	CHECK(pmx_counter(PINMX_CNT_INVALIDATIONS) > c->inval0,
	      "invalidation counter did not move");
	CHECK_OK(pmx_copy(c->fd, -1, c->src, 0, c->dst, 0, c->len));
	bad = mismatch(c->dst_buf, c->len, seed);
	CHECK(bad == c->len, "stale content at byte %zu", bad);
	close(c->fd);
	munmap(c->dst_buf, c->len);
	return 0;
}

static int test_cache_free_malloc(void)
{
	size_t len = 512 * 1024;
	struct cache_case c;
	uintptr_t old;
	char *p, *q;

	CHECK(mallopt(M_MMAP_THRESHOLD, 64 * 1024), "mallopt");
	p = malloc(len);
	CHECK(p, "malloc");
	if (cache_setup(&c, p, len, 1))
		return 1;
	old = (uintptr_t)p;
	free(p);
	q = malloc(len);
	CHECK((uintptr_t)q == old, "malloc did not reuse the address (%p vs %#lx)",
	      q, (unsigned long)old);
	fill(q, len, 2);
	return cache_check(&c, 2);
}

static int test_cache_munmap_mmap_fixed(void)
{
	size_t len = 256 * 1024;
	char *p = map_anon(len);
	struct cache_case c;

	CHECK(p, "mmap");
	if (cache_setup(&c, p, len, 3))
		return 1;
	CHECK_OK(munmap(p, len));
	CHECK(mmap(p, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p,
	      "mmap fixed: %s", strerror(errno));
	fill(p, len, 4);
	return cache_check(&c, 4);
}

static int test_cache_mremap(void)
{
	size_t len = 256 * 1024;
	char *p = map_anon(len), *target = map_anon(len), *moved;
	struct cache_case c;

	CHECK(p && target, "mmap");
	if (cache_setup(&c, p, len, 5))
		return 1;
	moved = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	CHECK(moved == target, "mremap: %s", strerror(errno));
	CHECK(mismatch(moved, len, 5) == len, "mremap lost the data");
	CHECK(mmap(p, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p,
	      "mmap fixed: %s", strerror(errno));
	fill(p, len, 6);
	return cache_check(&c, 6);
}

static int test_cache_madv_dontneed(void)
{
	size_t len = 256 * 1024, i;
	char *p = map_anon(len);
	struct cache_case c;

	CHECK(p, "mmap");
	if (cache_setup(&c, p, len, 7))
		return 1;
	CHECK_OK(madvise(p, len, MADV_DONTNEED));
	CHECK(pmx_counter(PINMX_CNT_INVALIDATIONS) > c.inval0,
	      "MADV_DONTNEED did not invalidate");
	CHECK_OK(pmx_copy(c.fd, -1, c.src, 0, c.dst, 0, len));
	for (i = 0; i < len; i++)
		CHECK(!c.dst_buf[i], "byte %zu not zero after MADV_DONTNEED", i);
	/*
	 * Writing may or may not replace the page re-pinned above (the kernel
	 * may have unshared it for the long-term pin), so only the content
	 * is checked here.
	 */
	fill(p, len, 8);
	CHECK_OK(pmx_copy(c.fd, -1, c.src, 0, c.dst, 0, len));
	CHECK(mismatch(c.dst_buf, len, 8) == len, "stale content after write");
	close(c.fd);
	munmap(c.dst_buf, len);
	return 0;
}

static int test_cache_fork_child_writes(void)
{
	size_t len = 256 * 1024;
	char *p = map_anon(len);
	struct cache_case c;
	int status;
	pid_t pid;

	CHECK(p, "mmap");
	if (cache_setup(&c, p, len, 9))
		return 1;
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		fill(p, len, 10);
		_exit(mismatch(p, len, 10) == len ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "child failed");
	CHECK(mismatch(p, len, 9) == len, "parent memory changed by child");
	CHECK(pmx_counter(PINMX_CNT_INVALIDATIONS) > c.inval0,
	      "fork did not invalidate");
	CHECK_OK(pmx_copy(c.fd, -1, c.src, 0, c.dst, 0, len));
	CHECK(mismatch(c.dst_buf, len, 9) == len,
	      "region shows the child's data");
	/* The parent's later writes must reach the region too. */
	fill(p, len, 11);
	return cache_check(&c, 11);
}

/* Run @fn in a child process; its exit status is the test result. */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	CHECK(pid >= 0, "fork");
	if (!pid) {
		fflush(stdout);
		_exit(fn());
	}
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	CHECK(WIFEXITED(status), "child died: status %#x", status);
	return WEXITSTATUS(status);
}

static int memlock_child(void)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	uint64_t memlock0 = pmx_counter(PINMX_CNT_ERR_MEMLOCK);
	char *src = map_anon(MiB), *dst = map_anon(MiB);
	uint32_t s, d;
	int fd;

	CHECK(src && dst, "mmap");
	fill(src, MiB, 12);
	CHECK_OK(setrlimit(RLIMIT_MEMLOCK, &rl));
	CHECK_OK(setresuid(65534, 65534, 65534));
	fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	CHECK(fd >= 0, "open as nobody: %s", strerror(errno));
	CHECK_OK(pmx_declare1(fd, src, MiB, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, MiB, PINMX_DECLARE_WRITABLE, &d));
	CHECK_ERRNO(pmx_copy(fd, -1, s, 0, d, 0, MiB), ENOMEM);
	CHECK(pmx_counter(PINMX_CNT_ERR_MEMLOCK) > memlock0, "err_memlock");
	CHECK_OK(pmx_range(fd, PINMX_IOC_UNPIN, s, 0, MiB));
	CHECK_OK(pmx_range(fd, PINMX_IOC_UNPIN, d, 0, MiB));
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after unpin", vm_pinned_kb());
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, 32 * 1024));
	CHECK(vm_pinned_kb() == 64, "VmPin %ld kB", vm_pinned_kb());
	CHECK(!memcmp(src, dst, 32 * 1024), "content under the limit");
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_PIN, s, 0, MiB), ENOMEM);
	CHECK(vm_pinned_kb() == 64, "failed pin leaked: VmPin %ld kB",
	      vm_pinned_kb());
	CHECK_OK(pmx_set_mode(fd, PINMX_PIN_DECLARE, 0, 0));
	CHECK_ERRNO(pmx_declare1(fd, src, MiB, 0, &s), ENOMEM);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0 + 2,
	      "refused declaration left a region");
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after close", vm_pinned_kb());
	return 0;
}

static int test_rlimit_memlock(void)
{
	struct rlimit rl = { 16 * 1024, 16 * 1024 };
	char *src = map_anon(MiB), *dst = map_anon(MiB);
	uint32_t s, d;
	int fd;

	if (in_child(memlock_child))
		return 1;
	/* CAP_IPC_LOCK lifts the limit. */
	CHECK(src && dst, "mmap");
	CHECK_OK(setrlimit(RLIMIT_MEMLOCK, &rl));
	fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	CHECK(fd >= 0, "open");
	CHECK_OK(pmx_declare1(fd, src, MiB, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, MiB, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, MiB));
	close(fd);
	return 0;
}

static int write_budget(unsigned long pages)
{
	FILE *f = fopen(BUDGET_PARAM, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%lu\n", pages) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static unsigned long read_budget(void)
{
	FILE *f = fopen(BUDGET_PARAM, "r");
	unsigned long pages = 0;

	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return pages;
}

static int budget_body(void)
{
	size_t len = 512 * 1024;
	char *a = map_anon(len), *b = map_anon(len), *dst = map_anon(len);
	uint64_t ev0 = pmx_counter(PINMX_CNT_BUDGET_EVICTIONS);
	uint64_t eb0 = pmx_counter(PINMX_CNT_ERR_BUDGET);
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	uint32_t ra, rb, rd;

	CHECK(fd >= 0 && a && b && dst, "setup");
	fill(a, len, 20);
	fill(b, len, 21);
	CHECK_OK(pmx_declare1(fd, a, len, 0, &ra));
	CHECK_OK(pmx_declare1(fd, b, len, 0, &rb));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &rd));
	CHECK_OK(write_budget(300));
	CHECK_OK(pmx_copy(fd, -1, ra, 0, rd, 0, len));
	CHECK(pmx_pinned(fd, ra) == 128 && pmx_pinned(fd, rd) == 128, "pins");
	CHECK_OK(pmx_copy(fd, -1, rb, 0, rd, 0, len));
	CHECK(pmx_counter(PINMX_CNT_BUDGET_EVICTIONS) > ev0, "no eviction");
	CHECK(pmx_pinned(fd, ra) == 0, "LRU region A kept %llu pages",
	      (unsigned long long)pmx_pinned(fd, ra));
	CHECK(pmx_pinned(fd, rb) == 128, "B not pinned");
	CHECK(mismatch(dst, len, 21) == len, "content after eviction");
	CHECK_OK(pmx_copy(fd, -1, ra, 0, rd, 0, len));
	CHECK(pmx_pinned(fd, rb) == 0 && pmx_pinned(fd, ra) == 128,
	      "A re-pinned, B evicted");
	CHECK(mismatch(dst, len, 20) == len, "content after re-pin");
	CHECK_OK(write_budget(100));
	CHECK_ERRNO(pmx_copy(fd, -1, rb, 0, rd, 0, len), ENOSPC);
	CHECK(pmx_counter(PINMX_CNT_ERR_BUDGET) > eb0, "err_budget");
	CHECK(pmx_pinned(fd, rb) == 0, "refused pin leaked");
	close(fd);
	return 0;
}

static int test_budget_eviction(void)
{
	unsigned long old = read_budget();
	int r;

	CHECK(old > 0, "cannot read %s", BUDGET_PARAM);
	r = budget_body();
	CHECK_OK(write_budget(old));
	return r;
}

static int test_bad_declare(void)
{
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	static struct pinmx_segment many[PINMX_MAX_SEGMENTS + 1];
	char *buf = map_anon(4 * PAGE), *raw = malloc(64);
	struct pinmx_segment seg, *useg;
	struct pinmx_declare req;
	int fd = pmx_open();
	uint32_t id;
	size_t i;

	CHECK(fd >= 0 && buf && raw, "setup");
	CHECK_ERRNO(pmx_declare(fd, NULL, 1, 0, &id), EFAULT);
	CHECK_ERRNO(pmx_declare(fd, (void *)8, 1, 0, &id), EFAULT);
	CHECK_ERRNO(pmx_declare(fd, &seg, 0, 0, &id), EINVAL);
	for (i = 0; i <= PINMX_MAX_SEGMENTS; i++)
		many[i] = (struct pinmx_segment){ (uintptr_t)buf, 1 };
	CHECK_ERRNO(pmx_declare(fd, many, PINMX_MAX_SEGMENTS + 1, 0, &id),
		    E2BIG);
	CHECK_OK(pmx_declare(fd, many, PINMX_MAX_SEGMENTS, 0, &id));
	CHECK_ERRNO(pmx_declare1(fd, buf, 0, 0, &id), EINVAL);
	CHECK_ERRNO(pmx_declare1(fd, NULL, PAGE, 0, &id), EFAULT);
	CHECK_ERRNO(pmx_declare1(fd, buf, UINT64_MAX - 10, 0, &id), EOVERFLOW);
	CHECK_ERRNO(pmx_declare1(fd, (void *)0xffff888000000000ul, PAGE, 0,
				 &id), EFAULT);
	CHECK_ERRNO(pmx_declare1(fd, (void *)0x7ffffffff000ul, 2 * PAGE, 0,
				 &id), EFAULT);
	CHECK_ERRNO(pmx_declare1(fd, buf, PAGE, 4, &id), EINVAL);
	/* Exposed for remote writes means writable. */
	CHECK_ERRNO(pmx_declare1(fd, buf, PAGE, PINMX_DECLARE_REMOTE, &id),
		    EINVAL);
	CHECK_ERRNO(pmx_declare1(fd, buf, PINMX_MAX_REGION_BYTES + 1, 0, &id),
		    EFBIG);
	CHECK_ERRNO(pmx_declare1(fd, (void *)0x1000, 1ULL << 46, 0, &id), EFBIG);
	for (i = 0; i < 4; i++)
		many[i] = (struct pinmx_segment){ 0x1000,
						  PINMX_MAX_REGION_BYTES / 4 };
	many[4] = (struct pinmx_segment){ (uintptr_t)buf, 1 };
	CHECK_ERRNO(pmx_declare(fd, many, 5, 0, &id), EFBIG);
	/* The largest region is accepted; declaring maps nothing. */
	CHECK_OK(pmx_declare(fd, many, 4, 0, &id));
	seg = (struct pinmx_segment){ (uintptr_t)buf, PAGE };
	req = (struct pinmx_declare){ .segments = (uintptr_t)&seg,
				      .nr_segments = 1, .pad = 1 };
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_DECLARE, &req), EINVAL);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_DECLARE, NULL), EFAULT);
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0 + 2,
	      "rejected declarations left regions");
	/* Unaligned user pointers and addresses are valid input. */
	useg = (struct pinmx_segment *)(raw + 3);
	memcpy(useg, &(struct pinmx_segment){ (uintptr_t)buf + 3, 5000 },
	       sizeof(*useg));
	CHECK_OK(pmx_declare(fd, useg, 1, 0, &id));
	close(fd);
	free(raw);
	return 0;
}

/*
 * PINMX_DECLARE_REMOTE draws a non-zero key per region, read back only by
 * the declaring process; other regions have key 0.
 */
static int test_declare_remote_key(void)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	struct pinmx_region_info ri = { 0 };
	char *buf = map_anon(4 * PAGE);
	uint32_t id[3], status;
	uint64_t key[3];
	int fd = pmx_open(), i;
	pid_t child;

	CHECK(fd >= 0 && buf, "setup");
	CHECK_OK(pmx_declare1(fd, buf, PAGE, remote, &id[0]));
	CHECK_OK(pmx_declare1(fd, buf, PAGE, remote, &id[1]));
	CHECK_OK(pmx_declare1(fd, buf, PAGE, PINMX_DECLARE_WRITABLE, &id[2]));
	for (i = 0; i < 3; i++) {
		CHECK_OK(pmx_region_info(fd, id[i], &ri));
		key[i] = ri.key;
		CHECK(ri.reserved == 0, "reserved %llu",
		      (unsigned long long)ri.reserved);
	}
	CHECK(key[0] && key[1] && key[0] != key[1] && !key[2],
	      "keys %#llx %#llx %#llx", (unsigned long long)key[0],
	      (unsigned long long)key[1], (unsigned long long)key[2]);
	CHECK(pmx_region_info(fd, id[0], &ri) == 0 &&
	      ri.flags == remote && ri.key == key[0],
	      "flags %#x key changed", ri.flags);
	ri = (struct pinmx_region_info){ .region_id = id[0], .reserved = 1 };
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_REGION_INFO, &ri), EINVAL);
	/* Another process holding the file cannot read the key. */
	child = fork();
	CHECK(child >= 0, "fork");
	if (child == 0) {
		struct pinmx_region_info cri = { .region_id = id[0] };

		_exit(ioctl(fd, PINMX_IOC_REGION_INFO, &cri) == -1 &&
		      errno == EACCES && cri.key == 0 ? 0 : 1);
	}
	CHECK(waitpid(child, (int *)&status, 0) == child &&
	      WIFEXITED(status) && !WEXITSTATUS(status),
	      "child read another process's key: status %#x", status);
	close(fd);
	munmap(buf, 4 * PAGE);
	return 0;
}

static int test_unmapped_segments(void)
{
	uint64_t fault0 = pmx_counter(PINMX_CNT_ERR_FAULT);
	char *buf = map_anon(8 * PAGE), *dst = map_anon(8 * PAGE);
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	struct pinmx_segment segs[2];
	uint32_t s, d, gap, r, none;
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND), fdo;

	CHECK(fd >= 0 && buf && dst && ro != MAP_FAILED, "setup");
	fill(buf, 4 * PAGE, 30);
	CHECK_OK(munmap(buf + 4 * PAGE, 4 * PAGE));
	CHECK_OK(mprotect(buf + 2 * PAGE, PAGE, PROT_NONE));
	CHECK_OK(pmx_declare1(fd, dst, 8 * PAGE, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_declare1(fd, buf + 4 * PAGE, 4 * PAGE, 0, &gap));
	CHECK_ERRNO(pmx_copy(fd, -1, gap, 0, d, 0, PAGE), EFAULT);
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_PIN, gap, 0, PAGE), EFAULT);
	CHECK_OK(pmx_declare1(fd, buf + 2 * PAGE, PAGE, 0, &none));
	CHECK_ERRNO(pmx_copy(fd, -1, none, 0, d, 0, 10), EFAULT);
	CHECK_OK(pmx_declare1(fd, ro, PAGE, PINMX_DECLARE_WRITABLE, &r));
	CHECK_ERRNO(pmx_copy(fd, -1, d, 0, r, 0, 10), EFAULT);
	/* A good segment followed by an unmapped one. */
	segs[0] = (struct pinmx_segment){ (uintptr_t)buf, 2 * PAGE };
	segs[1] = (struct pinmx_segment){ (uintptr_t)buf + 5 * PAGE, PAGE };
	CHECK_OK(pmx_declare(fd, segs, 2, 0, &s));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, 2 * PAGE));
	CHECK(!memcmp(dst, buf, 2 * PAGE), "content of the mapped part");
	CHECK_ERRNO(pmx_copy(fd, -1, s, PAGE, d, 0, 2 * PAGE), EFAULT);
	CHECK(pmx_pinned(fd, s) == 2, "pinned %llu",
	      (unsigned long long)pmx_pinned(fd, s));
	CHECK(pmx_counter(PINMX_CNT_ERR_FAULT) > fault0, "err_fault");
	CHECK(vm_pinned_kb() == 4 * 4, "VmPin %ld kB", vm_pinned_kb());
	/* Overlapped: in-line pins and the worker both report the fault. */
	fdo = pmx_open();
	CHECK(fdo >= 0, "open");
	CHECK_OK(pmx_set_mode(fdo, PINMX_PIN_OVERLAPPED, 1, 4));
	CHECK_OK(pmx_declare(fdo, segs, 2, 0, &s));
	CHECK_OK(pmx_declare1(fdo, dst, 8 * PAGE, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fdo, -1, s, 10, d, 0, 10));
	CHECK_ERRNO(pmx_copy(fdo, -1, s, 0, d, 0, 3 * PAGE), EFAULT);
	CHECK_OK(pmx_declare1(fdo, buf + 4 * PAGE, 4 * PAGE, 0, &gap));
	CHECK_ERRNO(pmx_copy(fdo, -1, gap, 0, d, 0, 4 * PAGE), EFAULT);
	/* A fault in the first segment does not fail a use of the second. */
	segs[0] = (struct pinmx_segment){ (uintptr_t)buf + 5 * PAGE, PAGE };
	segs[1] = (struct pinmx_segment){ (uintptr_t)buf, 2 * PAGE };
	CHECK_OK(pmx_declare(fdo, segs, 2, 0, &s));
	CHECK_OK(pmx_copy(fdo, -1, s, PAGE, d, 0, 2 * PAGE));
	CHECK(!memcmp(dst, buf, 2 * PAGE), "content behind a faulting segment");
	close(fdo);
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after close", vm_pinned_kb());
	return 0;
}

static int test_bad_ids_ranges_fds(void)
{
	char *buf = map_anon(4 * PAGE);
	struct pinmx_pin_mode_req mode = { .pin_mode = 3 };
	struct pinmx_copy cp = { .src_fd = -1 };
	struct pinmx_region_info ri;
	int fd = pmx_open(), null_fd = open("/dev/null", O_RDWR);
	uint32_t s, d;

	CHECK(fd >= 0 && null_fd >= 0 && buf, "setup");
	CHECK_OK(pmx_declare1(fd, buf, 2 * PAGE, 0, &s));
	CHECK_OK(pmx_declare1(fd, buf + 2 * PAGE, 2 * PAGE,
			      PINMX_DECLARE_WRITABLE, &d));
	CHECK_ERRNO(pmx_destroy(fd, 12345), ENOENT);
	CHECK_ERRNO(pmx_destroy(fd, 0), ENOENT);
	CHECK_ERRNO(pmx_region_info(fd, 777, &ri), ENOENT);
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_PIN, 999, 0, 1), ENOENT);
	CHECK_ERRNO(pmx_copy(fd, -1, 999, 0, d, 0, 1), ENOENT);
	CHECK_ERRNO(pmx_copy(fd, -1, s, 0, 999, 0, 1), ENOENT);
	CHECK_ERRNO(pmx_copy(fd, 9999, s, 0, d, 0, 1), EBADF);
	CHECK_ERRNO(pmx_copy(fd, null_fd, s, 0, d, 0, 1), EBADF);
	CHECK_ERRNO(pmx_copy(fd, -2, s, 0, d, 0, 1), EINVAL);
	CHECK_ERRNO(pmx_copy(fd, -1, s, 0, d, 0, 0), EINVAL);
	CHECK_ERRNO(pmx_copy(fd, -1, s, 1, d, 0, 2 * PAGE), ERANGE);
	CHECK_ERRNO(pmx_copy(fd, -1, s, 0, d, 2 * PAGE, 1), ERANGE);
	CHECK_ERRNO(pmx_copy(fd, -1, s, UINT64_MAX, d, 0, 2), EOVERFLOW);
	CHECK_ERRNO(pmx_copy(fd, -1, d, 0, s, 0, 1), EPERM);
	CHECK_ERRNO(pmx_copy(fd, -1, d, 0, d, 100, 200), EINVAL);
	fill(buf + 2 * PAGE, 100, 40);
	CHECK_OK(pmx_copy(fd, -1, d, 0, d, PAGE, 100));
	CHECK(mismatch(buf + 3 * PAGE, 100, 40) == 100, "same-region copy");
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_PIN, s, 0, 0), EINVAL);
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_UNPIN, s, 2 * PAGE, 1), ERANGE);
	CHECK_ERRNO(pmx_range(fd, PINMX_IOC_PIN, s, 2, UINT64_MAX), EOVERFLOW);
	cp.src_region = s;
	cp.dst_region = d;
	cp.len = 1;
	cp.reserved = 1;
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_COPY, &cp), EINVAL);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_SET_PIN_MODE, &mode), EINVAL);
	mode = (struct pinmx_pin_mode_req){ .chunk_min_pages = 9,
					    .chunk_max_pages = 8 };
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_SET_PIN_MODE, &mode), EINVAL);
	mode = (struct pinmx_pin_mode_req){ .chunk_max_pages = 65537 };
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_SET_PIN_MODE, &mode), EINVAL);
	CHECK_ERRNO(ioctl(fd, _IOW(PINMX_IOC_MAGIC, 0x20, uint64_t), buf),
		    ENOTTY);
	CHECK_ERRNO(ioctl(fd, _IOW(PINMX_IOC_MAGIC, 0x04, uint64_t[2]), buf),
		    ENOTTY);
	CHECK_ERRNO(ioctl(fd, _IOR('T', 0x01, int), buf), ENOTTY);
	close(null_fd);
	close(fd);
	return 0;
}

static int other_process_child(int pfd, uint32_t src, uint32_t src_ov,
			       uint32_t pdst, const char *expect, size_t len)
{
	uint64_t acc0 = pmx_counter(PINMX_CNT_ERR_ACCESS);
	struct pinmx_region_info ri;
	char *mine = map_anon(len);
	int fd = pmx_open();
	uint32_t d;

	CHECK(fd >= 0 && mine, "setup");
	CHECK_ERRNO(pmx_range(pfd, PINMX_IOC_PIN, src, 0, PAGE), EACCES);
	CHECK_ERRNO(pmx_range(pfd, PINMX_IOC_UNPIN, src, 0, PAGE), EACCES);
	CHECK_ERRNO(pmx_destroy(pfd, src), EACCES);
	CHECK_ERRNO(pmx_region_info(pfd, src, &ri), EACCES);
	CHECK_ERRNO(pmx_copy(pfd, -1, src, 0, pdst, 0, PAGE), EACCES);
	CHECK(pmx_counter(PINMX_CNT_ERR_ACCESS) >= acc0 + 5, "err_access");
	CHECK_OK(pmx_declare1(fd, mine, len, PINMX_DECLARE_WRITABLE, &d));
	/* A region of this endpoint is not reachable with another's id space. */
	CHECK_ERRNO(pmx_copy(fd, -1, src + 100, 0, d, 0, PAGE), ENOENT);
	/* Holding the peer's file grants reading its regions. */
	CHECK_OK(pmx_copy(fd, pfd, src, 0, d, 0, len));
	CHECK(!memcmp(mine, expect, len), "cross-process on-demand copy");
	memset(mine, 0, len);
	CHECK_OK(pmx_copy(fd, pfd, src_ov, 0, d, 0, len));
	CHECK(!memcmp(mine, expect, len), "cross-process overlapped copy");
	close(fd);
	return 0;
}

static int test_other_process_region(void)
{
	size_t len = 2 * MiB;
	char *buf = map_anon(len), *dst = map_anon(len);
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND), status;
	uint32_t src, src_ov, pdst;
	pid_t pid;

	CHECK(fd >= 0 && buf && dst, "setup");
	fill(buf, len, 50);
	CHECK_OK(pmx_declare1(fd, buf, len, 0, &src));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &pdst));
	CHECK_OK(pmx_set_mode(fd, PINMX_PIN_OVERLAPPED, 2, 64));
	CHECK_OK(pmx_declare1(fd, buf, len, 0, &src_ov));
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid)
		_exit(other_process_child(fd, src, src_ov, pdst, buf, len));
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status),
	      "child died");
	CHECK(!WEXITSTATUS(status), "child checks failed");
	CHECK(pmx_pinned(fd, src) == 512, "parent region pinned by the peer: %llu",
	      (unsigned long long)pmx_pinned(fd, src));
	CHECK_OK(pmx_copy(fd, -1, src, 0, pdst, 0, len));
	CHECK(mismatch(dst, len, 50) == len, "parent copy after the child");
	close(fd);
	return 0;
}

static int exit_child(void)
{
	char *src = map_anon(4 * MiB), *dst = map_anon(4 * MiB);
	int fd = pmx_open_mode(PINMX_PIN_OVERLAPPED);
	uint32_t s, d;

	CHECK(fd >= 0 && src && dst, "setup");
	fill(src, 4 * MiB, 60);
	CHECK_OK(pmx_declare1(fd, src, 4 * MiB, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, 4 * MiB, PINMX_DECLARE_WRITABLE, &d));
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, 4 * MiB));
	CHECK(vm_pinned_kb() == 2 * 4096, "VmPin %ld kB", vm_pinned_kb());
	return 0;	/* exits with the endpoint open and the pages pinned */
}

static int test_close_and_exit_release(void)
{
	uint64_t now0 = pmx_counter(PINMX_CNT_PAGES_PINNED_NOW);
	uint64_t regions0 = pmx_counter(PINMX_CNT_REGIONS_NOW);
	uint64_t deadline;
	char *buf = map_anon(MiB);
	int fd = pmx_open_mode(PINMX_PIN_DECLARE);
	uint32_t id;

	CHECK(fd >= 0 && buf, "setup");
	CHECK_OK(pmx_declare1(fd, buf, MiB, 0, &id));
	CHECK(vm_pinned_kb() == 1024, "VmPin %ld kB", vm_pinned_kb());
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB after close", vm_pinned_kb());
	if (in_child(exit_child))
		return 1;
	deadline = now_ns() + 10 * 1000000000ull;
	while (pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) != now0 &&
	       now_ns() < deadline)
		usleep(10000);
	CHECK(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) == now0,
	      "exit left %lld pages pinned",
	      (long long)(pmx_counter(PINMX_CNT_PAGES_PINNED_NOW) - now0));
	CHECK(pmx_counter(PINMX_CNT_REGIONS_NOW) == regions0, "regions left");
	return 0;
}

struct churn {
	char *buf;
	size_t len;
	volatile int stop;
	long rounds;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;

	while (!c->stop) {
		madvise(c->buf, c->len / 2, MADV_DONTNEED);
		fill(c->buf, c->len / 2, 70);
		c->rounds++;
	}
	return NULL;
}

/* Copies race invalidations; no errors, and the final state is exact. */
static int test_invalidate_during_copy(void)
{
	size_t len = 2 * MiB;
	struct churn c = { .buf = map_anon(len), .len = len };
	char *dst = map_anon(len), *ref = map_anon(len / 2);
	uint64_t inval0 = pmx_counter(PINMX_CNT_INVALIDATIONS);
	uint64_t deadline = now_ns() + 3 * 1000000000ull;
	int fd = pmx_open_mode(PINMX_PIN_OVERLAPPED);
	pthread_t t;
	uint32_t s, d;
	long copies = 0;

	CHECK(fd >= 0 && c.buf && dst && ref, "setup");
	fill(c.buf, len, 70);
	memcpy(ref, c.buf + len / 2, len / 2);
	CHECK_OK(pmx_declare1(fd, c.buf, len, 0, &s));
	CHECK_OK(pmx_declare1(fd, dst, len, PINMX_DECLARE_WRITABLE, &d));
	CHECK(!pthread_create(&t, NULL, churn_thread, &c), "thread");
	while (now_ns() < deadline) {
		if (pmx_copy(fd, -1, s, 0, d, 0, len)) {
			c.stop = 1;
			pthread_join(t, NULL);
			CHECK(0, "copy %ld failed: %s", copies, strerror(errno));
		}
		copies++;
		CHECK(!memcmp(dst + len / 2, ref, len / 2),
		      "copy %ld: the untouched half differs", copies);
	}
	c.stop = 1;
	pthread_join(t, NULL);
	printf("# %ld copies raced %ld invalidation rounds\n", copies, c.rounds);
	CHECK(c.rounds > 0 && copies > 0, "no race happened");
	CHECK(pmx_counter(PINMX_CNT_INVALIDATIONS) > inval0, "no invalidation");
	CHECK_OK(pmx_copy(fd, -1, s, 0, d, 0, len));
	CHECK(mismatch(dst, len / 2, 70) == len / 2, "final content");
	close(fd);
	return 0;
}

/* A peer copying out of a region while its owner unpins and destroys it. */
static int peer_copy_child(int pfd, uint32_t src, size_t len, int ready_fd)
{
	char *mine = map_anon(len);
	int fd = pmx_open_mode(PINMX_PIN_ON_DEMAND);
	uint64_t deadline = now_ns() + 60 * 1000000000ull;
	long copies = 0;
	uint32_t d;

	CHECK(fd >= 0 && mine, "setup");
	CHECK_OK(pmx_declare1(fd, mine, len, PINMX_DECLARE_WRITABLE, &d));
	while (now_ns() < deadline) {
		if (pmx_copy(fd, pfd, src, 0, d, 0, len)) {
			CHECK(errno == ENOENT, "copy %ld failed: %s", copies,
			      strerror(errno));
			printf("# peer made %ld copies before the destroy\n",
			       copies);
			return 0;
		}
		CHECK(mismatch(mine, len, 90) == len, "copy %ld content", copies);
		if (!copies++)
			CHECK(write(ready_fd, "r", 1) == 1, "pipe");
	}
	CHECK(0, "the destroyed region stayed readable");
	return 1;
}

static int test_destroy_during_peer_copy(void)
{
	size_t len = 8 * MiB;
	char *buf = map_anon(len), c;
	int fd = pmx_open(), pipefd[2], status, i;
	uint32_t src;
	pid_t pid;

	CHECK(fd >= 0 && buf && !pipe(pipefd), "setup");
	CHECK_OK(pmx_set_mode(fd, PINMX_PIN_OVERLAPPED, 1, 8));
	fill(buf, len, 90);
	CHECK_OK(pmx_declare1(fd, buf, len, 0, &src));
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid)
		_exit(peer_copy_child(fd, src, len, pipefd[1]));
	CHECK(read(pipefd[0], &c, 1) == 1, "child never copied");
	for (i = 0; i < 20; i++)
		CHECK_OK(pmx_range(fd, PINMX_IOC_UNPIN, src, 0, len));
	CHECK_OK(pmx_destroy(fd, src));
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status),
	      "child died");
	CHECK(!WEXITSTATUS(status), "child checks failed");
	close(fd);
	CHECK(vm_pinned_kb() == 0, "VmPin %ld kB", vm_pinned_kb());
	return 0;
}

static const int fuzz_errnos[] = {
	ENOTTY, EINVAL, EFAULT, EBADFD, E2BIG, EOVERFLOW, ENOENT, EBADF,
	EPERM, ERANGE, EPROTONOSUPPORT, EALREADY, EACCES, ENOSPC, ENOMEM,
	EFBIG, ENODEV, EADDRINUSE, ENOTCONN, EMSGSIZE, EPROTOTYPE, ENETDOWN,
	ENOBUFS,
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int fuzz_errno_known(int e)
{
	size_t i;

	for (i = 0; i < sizeof(fuzz_errnos) / sizeof(fuzz_errnos[0]); i++)
		if (fuzz_errnos[i] == e)
			return 1;
	return 0;
}

/* A random ioctl number: mostly ours with a random nr, size and direction. */
static unsigned long fuzz_cmd(void)
{
	uint64_t r = rng();

	switch (r & 3) {
	case 0:
		return (uint32_t)(r >> 8);
	default:
		return _IOC((r >> 8) & 3, PINMX_IOC_MAGIC, (r >> 16) & 0x3f,
			    (r >> 24) % 600);
	}
}

static int test_fuzz_ioctls(void)
{
	size_t len = 64 * 1024, i, ok = 0, failed = 0;
	char *canary = map_anon(4 * PAGE), *copy = map_anon(4 * PAGE);
	unsigned char *arena = malloc(len);
	int fds[2] = { pmx_open(), open("/dev/pinmx", O_RDWR) };
	uint32_t s, d;

	CHECK(fds[0] >= 0 && fds[1] >= 0 && canary && copy && arena, "setup");
	fill(canary, 4 * PAGE, 80);
	CHECK_OK(pmx_declare1(fds[0], canary, 4 * PAGE, 0, &s));
	CHECK_OK(pmx_declare1(fds[0], copy, 4 * PAGE, PINMX_DECLARE_WRITABLE,
			      &d));
	for (i = 0; i < len; i += 8)
		*(uint64_t *)(arena + i) = rng();
	for (i = 0; i < 100000; i++) {
		unsigned long cmd = fuzz_cmd();
		uint64_t r = rng();
		void *arg;
		long ret;

		*(uint64_t *)(arena + (r % (len / 8)) * 8) = rng();
		switch ((r >> 40) & 7) {
		case 0:
			arg = NULL;
			break;
		case 1:
			arg = (void *)(uintptr_t)rng();
			break;
		default:
			arg = arena + ((r >> 20) % (len - 1024));
			break;
		}
		ret = ioctl(fds[i & 1], cmd, arg);
		if (ret == 0) {
			ok++;
			continue;
		}
		CHECK(ret == -1 && fuzz_errno_known(errno),
		      "ioctl %#lx returned %ld errno %d (%s)", cmd, ret, errno,
		      strerror(errno));
		failed++;
	}
	printf("# 100000 random ioctls: %zu succeeded, %zu failed with an errno\n",
	       ok, failed);
	CHECK_OK(pmx_copy(fds[0], -1, s, 0, d, 0, 4 * PAGE));
	CHECK(mismatch(copy, 4 * PAGE, 80) == 4 * PAGE,
	      "canary region corrupted by the fuzz loop");
	close(fds[0]);
	close(fds[1]);
	free(arena);
	return 0;
}

/* An endpoint bound to lo with its event ring mapped. */
struct net_ep {
	int fd;
	uint8_t index;
	uint32_t session;
	struct pinmx_ring_ctl *ring;
};

static int net_ep_open(struct net_ep *ep, uint8_t index)
{
	struct pinmx_attach at = { .ifname = "lo" };
	struct pinmx_bind b = { .ifname = "lo", .index = index };

	ep->fd = pmx_open();
	CHECK(ep->fd >= 0, "open: %s", strerror(errno));
	CHECK_OK(ioctl(ep->fd, PINMX_IOC_ATTACH, &at));
	CHECK_ERRNO(mmap(NULL, PINMX_RING_BYTES, PROT_READ | PROT_WRITE,
			 MAP_SHARED, ep->fd, 0) == MAP_FAILED ? -1 : 0,
		    ENOTCONN);
	CHECK_OK(ioctl(ep->fd, PINMX_IOC_BIND, &b));
	CHECK(b.session != 0 && b.ifindex == at.ifindex, "session %u ifindex %u",
	      b.session, b.ifindex);
	CHECK_ERRNO(ioctl(ep->fd, PINMX_IOC_BIND, &b), EALREADY);
	ep->index = index;
	ep->session = b.session;
	ep->ring = mmap(NULL, PINMX_RING_BYTES, PROT_READ | PROT_WRITE,
			MAP_SHARED, ep->fd, 0);
	CHECK(ep->ring != MAP_FAILED, "mmap ring: %s", strerror(errno));
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

/* Common header of a frame of @kind from @src to @dst. */
static void mxoe_header(uint8_t *h, uint8_t kind, const struct net_ep *src,
			uint8_t dst_index, uint32_t dst_session, uint32_t plen)
{
	memset(h, 0, 72);
	h[0] = kind;
	h[1] = PINMX_MXOE_VERSION;
	h[4] = dst_index;
	h[5] = src->index;
	put32(h + 8, dst_session);
	put32(h + 12, src->session);
	put32(h + 16, 10);
	put32(h + 24, plen);
}

static int net_send(const struct net_ep *src, const uint8_t *h,
		    uint32_t hlen, const void *payload, uint32_t plen)
{
	struct pinmx_send req = {
		.header = (uintptr_t)h, .header_len = hlen,
		.payload = (uintptr_t)payload, .payload_len = plen,
	};

	return ioctl(src->fd, PINMX_IOC_SEND, &req);
}

/* Waits for the next event of @ep; returns its slot or NULL. */
static const struct pinmx_event *net_next(struct net_ep *ep, int timeout_ms)
{
	struct pollfd pfd = { .fd = ep->fd, .events = POLLIN };
	uint32_t cons = ep->ring->consumer;

	if (__atomic_load_n(&ep->ring->producer, __ATOMIC_ACQUIRE) == cons &&
	    poll(&pfd, 1, timeout_ms) != 1)
		return NULL;
	if (__atomic_load_n(&ep->ring->producer, __ATOMIC_ACQUIRE) == cons)
		return NULL;
	return (const void *)((char *)ep->ring + PINMX_RING_CTL_BYTES +
			      (cons % PINMX_RING_SLOTS) * PINMX_RING_SLOT_BYTES);
}

static void net_consume(struct net_ep *ep)
{
	__atomic_store_n(&ep->ring->consumer, ep->ring->consumer + 1,
			 __ATOMIC_RELEASE);
}

/* Sends one eager frame of @kind from @a to @b and checks what b receives. */
static int net_eager_case(struct net_ep *a, struct net_ep *b, uint8_t kind,
			  uint32_t hlen, uint32_t plen, uint32_t seed)
{
	uint8_t h[72], payload[1500];
	const struct pinmx_event *ev;
	const uint8_t *f;

	mxoe_header(h, kind, a, b->index, b->session, plen);
	put32(h + 40, plen);
	if (kind == PINMX_KIND_MEDIUM_FRAG) {
		h[51] = 1;	/* frag count 1, index 0, offset 0 */
		put32(h + 52, 10);
	}
	fill(payload, plen, seed);
	CHECK_OK(net_send(a, h, hlen, payload, plen));
	ev = net_next(b, 2000);
	CHECK(ev, "kind %u plen %u: no event", kind, plen);
	f = (const uint8_t *)(ev + 1);
	CHECK(ev->type == PINMX_EVENT_FRAME, "type %u", ev->type);
	CHECK(ev->frame_len == (hlen + plen < 46 ? 46 : hlen + plen),
	      "kind %u plen %u: frame_len %u", kind, plen, ev->frame_len);
	CHECK(!memcmp(f, h, hlen), "kind %u plen %u: header differs", kind,
	      plen);
	CHECK(mismatch(f + hlen, plen, seed) == plen,
	      "kind %u plen %u: payload byte %zu differs", kind, plen,
	      mismatch(f + hlen, plen, seed));
	net_consume(b);
	return 0;
}

static int test_net_lo_eager_two_endpoints(void)
{
	static const uint32_t tiny[] = { 0, 1, 31, 32 };
	static const uint32_t small[] = { 0, 33, 100, 128 };
	static const uint32_t medium[] = { 1, 129, 1000, 1444 };
	uint64_t rx0 = pmx_counter(PINMX_CNT_RX_FRAMES);
	struct net_ep a, b;
	uint8_t h[72];
	size_t i;

	if (net_ep_open(&a, 1) || net_ep_open(&b, 2))
		return 1;
	for (i = 0; i < 4; i++) {
		if (net_eager_case(&a, &b, PINMX_KIND_TINY, 48, tiny[i], i) ||
		    net_eager_case(&b, &a, PINMX_KIND_TINY, 48, tiny[i], i) ||
		    net_eager_case(&a, &b, PINMX_KIND_SMALL, 48, small[i], i) ||
		    net_eager_case(&b, &a, PINMX_KIND_MEDIUM_FRAG, 56,
				   medium[i], i))
			return 1;
	}
	/* An ACK is 40 bytes, padded to 46. */
	mxoe_header(h, PINMX_KIND_ACK, &a, b.index, b.session, 0);
	CHECK_OK(net_send(&a, h, 40, NULL, 0));
	CHECK(net_next(&b, 2000) && net_next(&b, 0)->frame_len == 46,
	      "ACK not received padded");
	net_consume(&b);
	CHECK(pmx_counter(PINMX_CNT_RX_FRAMES) - rx0 == 17, "rx_frames +%llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_RX_FRAMES) - rx0));
	close(a.fd);
	close(b.fd);
	return 0;
}

static int test_net_send_rejects_bad_headers(void)
{
	uint8_t h[72], payload[2000] = { 0 };
	struct net_ep a, b;
	struct pinmx_send req = { 0 };
	int fd = pmx_open();

	CHECK(fd >= 0, "open");
	req.header = (uintptr_t)h;
	req.header_len = 48;
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_SEND, &req), ENOTCONN);
	if (net_ep_open(&a, 3) || net_ep_open(&b, 4))
		return 1;
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_BIND, &(struct pinmx_bind){
		.ifname = "lo", .index = 3 }), EADDRINUSE);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_BIND, &(struct pinmx_bind){
		.ifname = "lo", .index = 256 }), EINVAL);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_BIND, &(struct pinmx_bind){
		.ifname = "nosuch0" }), ENODEV);
	CHECK_ERRNO(ioctl(fd, PINMX_IOC_ATTACH, &(struct pinmx_attach){
		.ifname = "nosuch0" }), ENODEV);
	mxoe_header(h, PINMX_KIND_TINY, &a, b.index, b.session, 4);
	put32(h + 40, 4);
	CHECK_ERRNO(net_send(&a, h, 56, payload, 4), EINVAL);
	CHECK_ERRNO(net_send(&a, h, 48, payload, 5), EINVAL);
	put32(h + 40, 5);
	CHECK_ERRNO(net_send(&a, h, 48, payload, 4), EINVAL);
	put32(h + 40, 4);
	h[1] = 2;
	CHECK_ERRNO(net_send(&a, h, 48, payload, 4), EINVAL);
	h[1] = 1;
	put32(h + 12, a.session + 1);
	CHECK_ERRNO(net_send(&a, h, 48, payload, 4), EINVAL);
	put32(h + 12, a.session);
	h[5] = 9;
	CHECK_ERRNO(net_send(&a, h, 48, payload, 4), EINVAL);
	h[5] = a.index;
	CHECK_ERRNO(net_send(&a, h, 48, (void *)8, 4), EFAULT);
	mxoe_header(h, PINMX_KIND_PULL, &a, b.index, b.session, 0);
	CHECK_ERRNO(net_send(&a, h, 72, NULL, 0), EPROTOTYPE);
	mxoe_header(h, PINMX_KIND_PUT_ACK, &a, b.index, b.session, 0);
	CHECK_ERRNO(net_send(&a, h, 48, NULL, 0), EPROTOTYPE);
	mxoe_header(h, PINMX_KIND_MEDIUM_FRAG, &a, b.index, b.session, 1445);
	put32(h + 40, 1445);
	h[51] = 1;
	CHECK_ERRNO(net_send(&a, h, 56, payload, 1445), EMSGSIZE);
	mxoe_header(h, 12, &a, b.index, b.session, 0);
	CHECK_ERRNO(net_send(&a, h, 48, NULL, 0), EINVAL);
	CHECK(!net_next(&b, 100), "a rejected frame was delivered");
	close(a.fd);
	close(b.fd);
	close(fd);
	return 0;
}

static int test_net_event_ring_overflow_drops_counted(void)
{
	uint64_t full0 = pmx_counter(PINMX_CNT_RX_RING_FULL);
	uint8_t seen[PINMX_RING_SLOTS + 4] = { 0 };
	struct pollfd pfd = { .events = POLLIN };
	const struct pinmx_event *ev;
	struct net_ep a, b;
	uint8_t h[72];
	uint32_t i;
	void *m;

	if (net_ep_open(&a, 7) || net_ep_open(&b, 8))
		return 1;
	m = mmap(NULL, PINMX_RING_BYTES - PAGE, PROT_READ, MAP_SHARED, b.fd, 0);
	CHECK(m == MAP_FAILED && errno == EINVAL, "short mapping: %s",
	      strerror(errno));
	m = mmap(NULL, PINMX_RING_BYTES, PROT_READ, MAP_PRIVATE, b.fd, 0);
	CHECK(m == MAP_FAILED && errno == EINVAL, "private mapping: %s",
	      strerror(errno));
	pfd.fd = b.fd;
	CHECK(poll(&pfd, 1, 0) == 0, "poll on an empty ring");
	for (i = 0; i < PINMX_RING_SLOTS + 4; i++) {
		mxoe_header(h, PINMX_KIND_TINY, &a, b.index, b.session, 4);
		put32(h + 16, i);
		put32(h + 40, 4);
		CHECK_OK(net_send(&a, h, 48, &i, 4));
	}
	for (i = 0; i < 400 && pmx_counter(PINMX_CNT_RX_RING_FULL) < full0 + 4;
	     i++)
		usleep(5000);
	CHECK(pmx_counter(PINMX_CNT_RX_RING_FULL) == full0 + 4,
	      "ring_full +%llu",
	      (unsigned long long)(pmx_counter(PINMX_CNT_RX_RING_FULL) - full0));
	CHECK(b.ring->producer == PINMX_RING_SLOTS, "producer %u",
	      b.ring->producer);
	CHECK(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN), "no POLLIN");
	/* Frames sent from different CPUs may be reordered: check each once. */
	for (i = 0; i < PINMX_RING_SLOTS; i++) {
		uint32_t v;

		ev = net_next(&b, 0);
		CHECK(ev, "event %u missing", i);
		memcpy(&v, (const uint8_t *)(ev + 1) + 48, 4);
		CHECK(v < PINMX_RING_SLOTS + 4 && !seen[v], "event %u: %u", i, v);
		seen[v] = 1;
		net_consume(&b);
	}
	CHECK(poll(&pfd, 1, 0) == 0, "POLLIN on a drained ring");
	CHECK_OK(net_send(&a, h, 48, &i, 4));
	CHECK(net_next(&b, 2000), "no event after the ring drained");
	close(a.fd);
	close(b.fd);
	return 0;
}

/* Raw AF_PACKET socket on lo sending Ethernet frames of our EtherType. */
static int raw_open(int *ifindex)
{
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	*ifindex = if_nametoindex("lo");
	return fd;
}

static int raw_send(int fd, int ifindex, const uint8_t *f, size_t len)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_ifindex = ifindex,
		.sll_halen = 6,
	};
	uint8_t frame[2100] = { 0 };

	frame[12] = PINMX_ETH_P_MXOE >> 8;
	frame[13] = PINMX_ETH_P_MXOE & 0xff;
	memcpy(frame + 14, f, len);
	return sendto(fd, frame, 14 + len, 0, (struct sockaddr *)&sll,
		      sizeof(sll)) == (ssize_t)(14 + len) ? 0 : -1;
}

static uint64_t rx_all(void)
{
	uint64_t n = 0;
	int c;

	for (c = PINMX_CNT_RX_FRAMES; c <= PINMX_CNT_RX_RING_FULL; c++)
		n += pmx_counter(c);
	return n;
}

/* Sends @f raw and checks that exactly counter @c rose by one. */
static int malformed_case(int fd, int ifindex, const uint8_t *f, size_t len,
			  int c, const char *what)
{
	uint64_t all0 = rx_all(), c0 = pmx_counter(c);
	int i;

	CHECK_OK(raw_send(fd, ifindex, f, len));
	for (i = 0; i < 200 && rx_all() == all0; i++)
		usleep(5000);
	CHECK(pmx_counter(c) == c0 + 1 && rx_all() == all0 + 1,
	      "%s: counter %d +%llu, all +%llu", what, c,
	      (unsigned long long)(pmx_counter(c) - c0),
	      (unsigned long long)(rx_all() - all0));
	return 0;
}

/*
 * A frame for b with a stale session is dropped and answered with a NACK
 * BAD_SESSION from b's index, which reaches a (it carries a's session).
 */
static int wrong_session_nacked(int fd, int ifindex, const uint8_t *good,
				struct net_ep *a, struct net_ep *b)
{
	uint64_t c0 = pmx_counter(PINMX_CNT_RX_WRONG_SESSION);
	const struct pinmx_event *ev;
	const uint8_t *n;
	uint8_t f[51];

	memcpy(f, good, 48);
	memcpy(f + 48, "abc", 3);
	put32(f + 8, b->session + 1);
	CHECK_OK(raw_send(fd, ifindex, f, sizeof(f)));
	ev = net_next(a, 1000);
	CHECK(ev, "no NACK for a stale session");
	n = (const uint8_t *)(ev + 1);
	CHECK(n[0] == PINMX_KIND_NACK && n[5] == b->index && n[32] == 2 &&
	      n[33] == PINMX_KIND_TINY, "kind %u from %u reason %u refused %u",
	      n[0], n[5], n[32], n[33]);
	net_consume(a);
	CHECK(pmx_counter(PINMX_CNT_RX_WRONG_SESSION) == c0 + 1,
	      "wrong session not counted");
	CHECK(!net_next(b, 0), "stale frame delivered");
	return 0;
}

static int test_net_malformed_frames_dropped_counted(void)
{
	uint8_t f[1600], good[72];
	uint64_t all0, n;
	struct net_ep a, b;
	int fd, ifindex, i;

	if (net_ep_open(&a, 5) || net_ep_open(&b, 6))
		return 1;
	fd = raw_open(&ifindex);
	CHECK(fd >= 0 && ifindex > 0, "raw socket: %s", strerror(errno));
	mxoe_header(good, PINMX_KIND_TINY, &a, b.index, b.session, 3);
	put32(good + 40, 3);
	memcpy(f, good, 48);
	memcpy(f + 48, "abc", 3);
	if (malformed_case(fd, ifindex, f, 51, PINMX_CNT_RX_FRAMES, "valid"))
		return 1;
	CHECK(net_next(&b, 1000) && !memcmp(net_next(&b, 0) + 1, f, 51),
	      "valid raw frame not in the ring");
	net_consume(&b);
#define BAD(len, counter, what, ...)					\
	do {								\
		memcpy(f, good, 48);					\
		memcpy(f + 48, "abc", 3);				\
		__VA_ARGS__;						\
		if (malformed_case(fd, ifindex, f, len, counter, what))	\
			return 1;					\
	} while (0)
	BAD(20, PINMX_CNT_RX_SHORT, "truncated common header");
	BAD(51, PINMX_CNT_RX_BAD_VERSION, "version 2", f[1] = 2);
	BAD(51, PINMX_CNT_RX_UNKNOWN_KIND, "kind 0", f[0] = 0);
	BAD(51, PINMX_CNT_RX_UNKNOWN_KIND, "kind 16", f[0] = 16);
#define ATOMIC(op, width, count, off, plen)				\
	f[0] = 14; put32(f + 24, plen); memset(f + 32, 0, 32 + plen);	\
	f[56] = op; f[57] = width; f[59] = count; put64(f + 40, off)
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "ATOMIC op 0", ATOMIC(0, 8, 1, 0, 8));
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "ATOMIC op 5", ATOMIC(5, 8, 1, 0, 8));
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "ATOMIC width 3", ATOMIC(1, 3, 1, 0, 8));
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "ATOMIC misaligned", ATOMIC(1, 8, 1, 4, 8));
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "FETCH_ADD of 2 words",
	    ATOMIC(1, 8, 2, 0, 8));
	BAD(72, PINMX_CNT_RX_BAD_LENGTH, "CAS with one operand",
	    ATOMIC(3, 8, 1, 0, 8));
	BAD(80, PINMX_CNT_RX_BAD_LENGTH, "ACCUMULATE of 3 with 2 operands",
	    ATOMIC(4, 4, 3, 0, 16));
	BAD(72, PINMX_CNT_RX_OUT_OF_RANGE, "ATOMIC at 2^63 - 8",
	    ATOMIC(1, 8, 1, (1ULL << 63) - 8, 8));
#undef ATOMIC
	BAD(72, PINMX_CNT_RX_BAD_LENGTH, "PUT without payload", f[0] = 12;
	    put32(f + 24, 0); memset(f + 32, 0, 40); put32(f + 60, 1));
	BAD(73, PINMX_CNT_RX_BAD_FIELD, "PUT frame count 0", f[0] = 12;
	    put32(f + 24, 1); memset(f + 32, 0, 41));
	BAD(73, PINMX_CNT_RX_BAD_FIELD, "PUT frame index past count",
	    f[0] = 12; put32(f + 24, 1); memset(f + 32, 0, 41);
	    put32(f + 56, 1); put32(f + 60, 1));
	BAD(73, PINMX_CNT_RX_OUT_OF_RANGE, "PUT region offset 2^63 - 1",
	    f[0] = 12; put32(f + 24, 1); memset(f + 32, 0, 41);
	    put32(f + 60, 1); put64(f + 40, (1ULL << 63) - 1));
	BAD(48, PINMX_CNT_RX_SHORT, "truncated PUT header", f[0] = 12;
	    put32(f + 24, 0));
	BAD(40, PINMX_CNT_RX_SHORT, "truncated TINY header");
	BAD(66, PINMX_CNT_RX_SHORT, "truncated PULL header", f[0] = 7);
	BAD(51, PINMX_CNT_RX_BAD_LENGTH, "payload past frame", put32(f + 24, 4));
	BAD(51, PINMX_CNT_RX_BAD_LENGTH, "payload length 2^32-1",
	    put32(f + 24, 0xffffffff));
	BAD(60, PINMX_CNT_RX_BAD_LENGTH, "trailing bytes");
	BAD(51, PINMX_CNT_RX_BAD_LENGTH, "message length", put32(f + 40, 2));
	BAD(90, PINMX_CNT_RX_BAD_LENGTH, "TINY above 32", put32(f + 24, 42);
	    put32(f + 40, 42));
	BAD(51, PINMX_CNT_RX_WRONG_ENDPOINT, "wrong endpoint", f[4] = 200);
	BAD(57, PINMX_CNT_RX_BAD_FIELD, "MEDIUM frag count 0", f[0] = 5;
	    put32(f + 24, 1); memset(f + 32, 0, 24); put32(f + 40, 1));
	BAD(57, PINMX_CNT_RX_OUT_OF_RANGE, "MEDIUM past message", f[0] = 5;
	    put32(f + 24, 1); memset(f + 32, 0, 24); f[51] = 1;
	    put32(f + 40, 1); put32(f + 44, 1));
	BAD(64, PINMX_CNT_RX_OUT_OF_RANGE, "RNDV length 2^63", f[0] = 6;
	    put32(f + 24, 0); memset(f + 32, 0, 32); f[40] = 0x80);
	BAD(48, PINMX_CNT_RX_BAD_FIELD, "NOTIFY status 8", f[0] = 9;
	    put32(f + 24, 0); memset(f + 32, 0, 16); put32(f + 36, 8));
	BAD(48, PINMX_CNT_RX_BAD_FIELD, "CONNECT_REQUEST status 1", f[0] = 1;
	    put32(f + 24, 0); put32(f + 8, 0); memset(f + 32, 0, 16);
	    f[44] = 1);
	BAD(76, PINMX_CNT_RX_BAD_LENGTH, "PULL payload neither 0 nor a key",
	    f[0] = 7; put32(f + 24, 4); memset(f + 32, 0, 44);
	    put32(f + 56, 100); put32(f + 68, 100); f[65] = 1);
	BAD(72, PINMX_CNT_RX_BAD_FIELD, "PULL frame count", f[0] = 7;
	    put32(f + 24, 0); memset(f + 32, 0, 40); put32(f + 56, 100);
	    put32(f + 68, 10); f[65] = 9);
#undef BAD
	if (wrong_session_nacked(fd, ifindex, good, &a, &b))
		return 1;
	all0 = rx_all();
	for (i = 0; i < 2000; i++) {
		size_t len = rng() % 1600;

		for (n = 0; n < len; n++)
			f[n] = rng();
		if (i & 1)
			f[1] = 1;	/* get past the version check */
		CHECK_OK(raw_send(fd, ifindex, f, len));
	}
	for (i = 0; i < 400 && rx_all() < all0 + 2000; i++)
		usleep(5000);
	n = rx_all() - all0;
	printf("# 2000 random frames: %llu counted\n", (unsigned long long)n);
	CHECK(n == 2000, "%llu of 2000 random frames counted",
	      (unsigned long long)n);
	close(fd);
	close(a.fd);
	close(b.fd);
	return 0;
}

/* A field of a fuzzed PUT: the good value half the time, else random. */
static uint64_t fuzz_field(uint64_t good, uint64_t mask)
{
	uint64_t r = rng();

	return r & 1 ? good : (r >> 8) & mask;
}

/* Waits for @n put end events on @ep; 0, or 1 after 20 s. */
static int drain_put_ends(struct net_ep *ep, unsigned int n)
{
	const struct pinmx_event *ev;

	while (n) {
		ev = net_next(ep, 20000);
		CHECK(ev, "%u put ends missing", n);
		CHECK(ev->type == PINMX_EVENT_PUT_DONE ||
		      ev->type == PINMX_EVENT_PUT_FAILED ||
		      ev->type == PINMX_EVENT_FRAME, "event type %u", ev->type);
		if (ev->type != PINMX_EVENT_FRAME) {
			const struct pinmx_pull_event *pe = (const void *)(ev + 1);

			CHECK(pe->status <= PINMX_PULL_BAD_KEY, "status %u",
			      pe->status);
			n--;
		}
		net_consume(ep);
	}
	return 0;
}

/*
 * 2000 PUT and PUTV requests whose fields are half good, half random, from
 * a to an exposed region of b: each fails with a known errno or ends with an event;
 * the exposed region holds only its old bytes or the source's, and a region
 * of b not exposed, declared at the same time, is untouched.
 */
static int test_fuzz_put(void)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	uint8_t *src = map_anon(8 * PAGE), *dst = map_anon(8 * PAGE);
	uint8_t *canary = map_anon(8 * PAGE);
	struct pinmx_region_info ri;
	uint32_t local, exposed, plain;
	unsigned int started = 0, i;
	struct net_ep a, b;

	CHECK(src && dst && canary, "map");
	if (net_ep_open(&a, 7) || net_ep_open(&b, 8))
		return 1;
	memset(src, 0xab, 8 * PAGE);
	fill(canary, 8 * PAGE, 81);
	CHECK_OK(pmx_declare1(a.fd, src, 8 * PAGE, 0, &local));
	CHECK_OK(pmx_declare1(b.fd, dst, 8 * PAGE, remote, &exposed));
	CHECK_OK(pmx_declare1(b.fd, canary, 8 * PAGE, PINMX_DECLARE_WRITABLE,
			      &plain));
	CHECK_OK(pmx_region_info(b.fd, exposed, &ri));
	for (i = 0; i < 2000; i++) {
		struct pinmx_put req = {
			.peer_endpoint = fuzz_field(b.index, 0xff),
			.flags = fuzz_field(0, 0xff),
			.peer_session = fuzz_field(b.session, 0xffffffff),
			.remote_region = rng() & 1 ? exposed : fuzz_field(plain, 7),
			.local_region = fuzz_field(local, 7),
			.handle = i,
			.remote_offset = fuzz_field(rng() % (8 * PAGE), ~0ULL),
			.local_offset = fuzz_field(rng() % (8 * PAGE), ~0ULL),
			.length = fuzz_field(rng() % (3 * PAGE), ~0ULL),
			.remote_key = fuzz_field(ri.key, ~0ULL),
			.reserved = fuzz_field(0, 1),
		};
		struct pinmx_put_piece pieces[4];
		struct pinmx_putv v = {
			.peer_endpoint = req.peer_endpoint,
			.peer_session = req.peer_session,
			.remote_region = req.remote_region,
			.local_region = req.local_region, .handle = i,
			.nr_pieces = fuzz_field(1 + rng() % 4, 0xfff),
			.pieces = fuzz_field((uintptr_t)pieces, ~0ULL),
			.remote_key = req.remote_key,
			.reserved = req.reserved,
		};
		long ret;

		for (unsigned int k = 0; k < 4; k++)
			pieces[k] = (struct pinmx_put_piece){
				fuzz_field(rng() % (8 * PAGE), ~0ULL),
				fuzz_field(rng() % (8 * PAGE), ~0ULL),
				fuzz_field(1 + rng() % (2 * PAGE), ~0ULL),
			};
		ret = i & 1 ? ioctl(a.fd, PINMX_IOC_PUTV, &v) :
		      ioctl(a.fd, PINMX_IOC_PUT, &req);

		if (!ret)
			started++;
		else
			CHECK(ret == -1 && fuzz_errno_known(errno),
			      "put returned %ld errno %d (%s)", ret, errno,
			      strerror(errno));
		if (started == 64) {
			if (drain_put_ends(&a, started))
				return 1;
			started = 0;
		}
	}
	if (drain_put_ends(&a, started))
		return 1;
	for (i = 0; i < 8 * PAGE; i++)
		CHECK(dst[i] == 0 || dst[i] == 0xab, "exposed byte %u: %#x", i,
		      dst[i]);
	CHECK(mismatch(canary, 8 * PAGE, 81) == 8 * PAGE,
	      "region not exposed written at %zu", mismatch(canary, 8 * PAGE, 81));
	close(a.fd);
	close(b.fd);
	return 0;
}

/* Sends FETCH_ADD seq @seq of @add to word 0 of @region as endpoint @a. */
static int raw_fetch_add(int fd, int ifindex, struct net_ep *a,
			 struct net_ep *b, uint32_t region, uint64_t key,
			 uint32_t seq, uint64_t add)
{
	uint8_t f[72];

	mxoe_header(f, PINMX_KIND_ATOMIC, a, b->index, b->session, 8);
	put32(f + 32, seq);
	put32(f + 36, region);
	put64(f + 40, 0);
	put64(f + 48, key);
	f[56] = PINMX_ATOMIC_FETCH_ADD;
	f[57] = 8;
	f[59] = 1;
	put64(f + 64, add);
	return raw_send(fd, ifindex, f, sizeof(f));
}

/* Waits until counter @c reaches @want; 0, or 1 after 5 s. */
static int counter_reaches(int c, uint64_t want)
{
	for (int i = 0; i < 1000 && pmx_counter(c) < want; i++)
		usleep(5000);
	CHECK(pmx_counter(c) >= want, "counter %d: %llu, want %llu", c,
	      (unsigned long long)pmx_counter(c), (unsigned long long)want);
	return 0;
}

/*
 * A FETCH_ADD request received twice (a resend, a duplicate on the wire)
 * adds once and is answered again from the peer's window; one older than
 * the window is dropped; a new seq adds again.
 */
static int test_atomic_replayed_once(void)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	uint64_t *word = map_anon(PAGE);
	uint64_t applied0 = pmx_counter(PINMX_CNT_ATOMICS_APPLIED);
	uint64_t replays0 = pmx_counter(PINMX_CNT_ATOMIC_REPLAYS);
	struct pinmx_region_info ri;
	struct net_ep a, b;
	int fd, ifindex;
	uint32_t id;

	CHECK(word, "map");
	if (net_ep_open(&a, 9) || net_ep_open(&b, 10))
		return 1;
	fd = raw_open(&ifindex);
	CHECK(fd >= 0 && ifindex > 0, "raw socket: %s", strerror(errno));
	*word = 1000;
	CHECK_OK(pmx_declare1(b.fd, word, PAGE, remote, &id));
	CHECK_OK(pmx_region_info(b.fd, id, &ri));
	CHECK_OK(pmx_range(b.fd, PINMX_IOC_PIN, id, 0, PAGE));
	CHECK_OK(raw_fetch_add(fd, ifindex, &a, &b, id, ri.key, 300, 5));
	if (counter_reaches(PINMX_CNT_ATOMICS_APPLIED, applied0 + 1))
		return 1;
	CHECK_OK(raw_fetch_add(fd, ifindex, &a, &b, id, ri.key, 300, 5));
	if (counter_reaches(PINMX_CNT_ATOMIC_REPLAYS, replays0 + 1))
		return 1;
	CHECK(__atomic_load_n(word, __ATOMIC_SEQ_CST) == 1005,
	      "word %llu after a replay", (unsigned long long)*word);
	/* seq 300 + 256 moves the window: 300 is older than it now. */
	CHECK_OK(raw_fetch_add(fd, ifindex, &a, &b, id, ri.key, 556, 7));
	if (counter_reaches(PINMX_CNT_ATOMICS_APPLIED, applied0 + 2))
		return 1;
	CHECK_OK(raw_fetch_add(fd, ifindex, &a, &b, id, ri.key, 300, 5));
	if (counter_reaches(PINMX_CNT_ATOMIC_REPLAYS, replays0 + 2))
		return 1;
	CHECK(__atomic_load_n(word, __ATOMIC_SEQ_CST) == 1012 &&
	      pmx_counter(PINMX_CNT_ATOMICS_APPLIED) == applied0 + 2,
	      "word %llu, applied +%llu", (unsigned long long)*word,
	      (unsigned long long)(pmx_counter(PINMX_CNT_ATOMICS_APPLIED) -
				   applied0));
	/* The same seq from another session is another peer's request. */
	a.session++;
	CHECK_OK(raw_fetch_add(fd, ifindex, &a, &b, id, ri.key, 300, 5));
	if (counter_reaches(PINMX_CNT_ATOMICS_APPLIED, applied0 + 3))
		return 1;
	CHECK(__atomic_load_n(word, __ATOMIC_SEQ_CST) == 1017, "word %llu",
	      (unsigned long long)*word);
	close(fd);
	close(a.fd);
	close(b.fd);
	return 0;
}

/*
 * A word aligned in its region but not in the target's memory (the region
 * starts 4 bytes into a page) is refused with NACK BAD_FIELD: the atomic
 * ends NO_RESOURCES and the memory is untouched; a 4-byte word there is
 * aligned and applied.
 */
static int test_atomic_misaligned_refused(void)
{
	const uint32_t remote = PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE;
	uint8_t *page = map_anon(PAGE);
	const struct pinmx_atomic_event *ae;
	const struct pinmx_event *ev;
	struct pinmx_region_info ri;
	struct pinmx_atomic req;
	struct net_ep a, b;
	uint32_t id, word;

	CHECK(page, "map");
	if (net_ep_open(&a, 11) || net_ep_open(&b, 12))
		return 1;
	memset(page, 0x11, PAGE);
	CHECK_OK(pmx_declare1(b.fd, page + 4, 64, remote, &id));
	CHECK_OK(pmx_region_info(b.fd, id, &ri));
	for (uint32_t width = 8; width >= 4; width -= 4) {
		req = (struct pinmx_atomic){
			.peer_endpoint = b.index, .op = PINMX_ATOMIC_FETCH_ADD,
			.peer_session = b.session, .remote_region = id,
			.width = width, .handle = width, .count = 1,
			.remote_offset = 0, .remote_key = ri.key, .operand = 1,
		};
		CHECK_OK(ioctl(a.fd, PINMX_IOC_ATOMIC, &req));
		ev = net_next(&a, 20000);
		CHECK(ev, "no atomic end");
		ae = (const void *)(ev + 1);
		if (width == 8)
			CHECK(ev->type == PINMX_EVENT_ATOMIC_FAILED &&
			      ae->status == PINMX_PULL_NO_RESOURCES &&
			      ae->nack_reason == 6, "misaligned: type %u "
			      "status %u nack %u", ev->type, ae->status,
			      ae->nack_reason);
		else
			CHECK(ev->type == PINMX_EVENT_ATOMIC_DONE &&
			      ae->old == 0x11111111, "aligned int32: type %u "
			      "old %#llx", ev->type,
			      (unsigned long long)ae->old);
		net_consume(&a);
	}
	memcpy(&word, page + 4, 4);
	CHECK(word == 0x11111112 && page[8] == 0x11 && page[3] == 0x11,
	      "memory after the atomics: %#x", word);
	close(a.fd);
	close(b.fd);
	return 0;
}

/* The example frames of docs/wire-protocol.md, to endpoint 1 session 0x11223344. */
static const struct {
	const char *name;
	size_t len;
	uint8_t bytes[72];
} wire_examples[] = {
	{ "CONNECT_REQUEST", 48, {
		  0x01, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0xc0, 0xff, 0xee, 0x00, 0x00, 0x00, 0x01,
		  0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
	  } },
	{ "CONNECT_REPLY", 48, {
		  0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0xc0, 0xff, 0xee, 0x00, 0x00, 0x00, 0x01,
		  0x00, 0x00, 0x00, 0xc8, 0x01, 0x00, 0x00, 0x00,
	  } },
	{ "TINY", 51, {
		  0x03, 0x01, 0x00, 0x01, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x07,
		  0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
		  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		  0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
		  0x61, 0x62, 0x63,
	  } },
	{ "SMALL", 53, {
		  0x04, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
		  0x01, 0x02, 0x03, 0x04, 0x05,
	  } },
	{ "MEDIUM_FRAG", 60, {
		  0x05, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,
		  0x00, 0x00, 0x07, 0xd0, 0x00, 0x00, 0x05, 0xa4,
		  0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0a,
		  0x09, 0x09, 0x09, 0x09,
	  } },
	{ "RNDV", 64, {
		  0x06, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,
		  0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xbe, 0xef,
	  } },
	{ "PULL", 72, {
		  0x07, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x04, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
		  0x00, 0x00, 0xb5, 0x80, 0x00, 0x00, 0x00, 0x2c,
		  0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x05, 0xac,
	  } },
	{ "PULL_REPLY", 52, {
		  0x08, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x2d,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x05, 0xac,
		  0x7f, 0x7f, 0x7f, 0x7f,
	  } },
	{ "NOTIFY", 48, {
		  0x09, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x01,
		  0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	  } },
	{ "ACK", 40, {
		  0x0a, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x00,
	  } },
	{ "NACK", 64, {
		  0x0b, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
		  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		  0x05, 0x07, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x04, 0x00,
		  0x00, 0x00, 0x7f, 0x00, 0x00, 0x00, 0x10, 0x00,
		  0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x00,
	  } },
};

/* Waits until counter @c passed @c0 by one; no event may reach @ep. */
static int engine_case(struct net_ep *ep, int fd, int ifindex,
		       const uint8_t *f, size_t len, int c, const char *what)
{
	uint64_t c0 = pmx_counter(c);
	int i;

	CHECK_OK(raw_send(fd, ifindex, f, len));
	for (i = 0; i < 200 && pmx_counter(c) == c0; i++)
		usleep(5000);
	CHECK(pmx_counter(c) == c0 + 1, "%s: counter %d +%llu", what, c,
	      (unsigned long long)(pmx_counter(c) - c0));
	CHECK(!net_next(ep, 0), "%s: reached the event ring", what);
	return 0;
}

/*
 * Every example passes the checks. PULL, PULL_REPLY and a NACK refusing a
 * PULL belong to the pull engine: the PULL names no region of endpoint 1
 * (NACK UNKNOWN_REGION sent), the reply and the NACK no pull of it
 * (dropped as duplicates). The others are delivered byte for byte.
 */
static int test_net_wire_example_frames_accepted(void)
{
	const struct pinmx_event *ev;
	struct net_ep b;
	uint8_t f[72];
	int fd, ifindex, c;
	size_t i;

	if (net_ep_open(&b, 1))
		return 1;
	fd = raw_open(&ifindex);
	CHECK(fd >= 0 && ifindex > 0, "raw socket: %s", strerror(errno));
	for (i = 0; i < sizeof(wire_examples) / sizeof(wire_examples[0]); i++) {
		memcpy(f, wire_examples[i].bytes, wire_examples[i].len);
		if (f[0] != PINMX_KIND_CONNECT_REQUEST)
			put32(f + 8, b.session);
		c = f[0] == PINMX_KIND_PULL ? PINMX_CNT_NACKS_SENT :
		    f[0] == PINMX_KIND_PULL_REPLY ||
		    f[0] == PINMX_KIND_NACK ? PINMX_CNT_PULL_DUPLICATES : -1;
		if (c >= 0) {
			if (engine_case(&b, fd, ifindex, f,
					wire_examples[i].len, c,
					wire_examples[i].name))
				return 1;
			continue;
		}
		if (malformed_case(fd, ifindex, f, wire_examples[i].len,
				   PINMX_CNT_RX_FRAMES, wire_examples[i].name))
			return 1;
		ev = net_next(&b, 1000);
		CHECK(ev && ev->frame_len == wire_examples[i].len &&
		      !memcmp(ev + 1, f, wire_examples[i].len),
		      "%s: not delivered as sent", wire_examples[i].name);
		net_consume(&b);
	}
	close(fd);
	close(b.fd);
	return 0;
}

/* Prints the default pin mode of a new endpoint, for the parameter test. */
static int print_default_mode(void)
{
	struct pinmx_info info;
	int fd = open("/dev/pinmx", O_RDWR);

	CHECK(fd >= 0 && !ioctl(fd, PINMX_IOC_INFO, &info), "info");
	printf("%u\n", info.pin_mode);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "abi_hello", test_abi_hello },
	{ "declare_destroy", test_declare_destroy },
	{ "on_demand_pins_only_used", test_on_demand_pins_only_used },
	{ "declare_mode", test_declare_mode },
	{ "overlapped_copy_sizes", test_overlapped_copy_sizes },
	{ "overlapped_worker_ahead", test_overlapped_worker_ahead },
	{ "multi_segment_copy", test_multi_segment_copy },
	{ "cache_free_malloc", test_cache_free_malloc },
	{ "cache_munmap_mmap_fixed", test_cache_munmap_mmap_fixed },
	{ "cache_mremap", test_cache_mremap },
	{ "cache_madv_dontneed", test_cache_madv_dontneed },
	{ "cache_fork_child_writes", test_cache_fork_child_writes },
	{ "rlimit_memlock", test_rlimit_memlock },
	{ "budget_eviction", test_budget_eviction },
	{ "bad_declare", test_bad_declare },
	{ "declare_remote_key", test_declare_remote_key },
	{ "unmapped_segments", test_unmapped_segments },
	{ "bad_ids_ranges_fds", test_bad_ids_ranges_fds },
	{ "other_process_region", test_other_process_region },
	{ "close_and_exit_release", test_close_and_exit_release },
	{ "invalidate_during_copy", test_invalidate_during_copy },
	{ "destroy_during_peer_copy", test_destroy_during_peer_copy },
	{ "fuzz_ioctls", test_fuzz_ioctls },
	{ "net_lo_eager_tiny_small_medium_two_endpoints",
	  test_net_lo_eager_two_endpoints },
	{ "net_send_rejects_bad_headers", test_net_send_rejects_bad_headers },
	{ "net_fuzz_put_requests_known_errors_memory_bounded", test_fuzz_put },
	{ "net_atomic_replayed_request_applied_once", test_atomic_replayed_once },
	{ "net_atomic_misaligned_word_refused_memory_untouched",
	  test_atomic_misaligned_refused },
	{ "net_event_ring_overflow_drops_counted",
	  test_net_event_ring_overflow_drops_counted },
	{ "net_malformed_frames_dropped_counted",
	  test_net_malformed_frames_dropped_counted },
	{ "net_wire_example_frames_accepted",
	  test_net_wire_example_frames_accepted },
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--default-mode"))
		return print_default_mode();
	for (i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name))
			return tests[i].fn() ? 1 : 0;
	fprintf(stderr, "usage: %s --list | --default-mode | TEST\n", argv[0]);
	return 2;
}
