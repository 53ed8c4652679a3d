// SPDX-License-Identifier: GPL-2.0
/* Thin wrappers over the /dev/pinmx ioctls for tests and the benchmark. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "pinmx_test.h"

int pmx_open(void)
{
	struct pinmx_hello hello = { .abi_version = PINMX_ABI_VERSION };
	int fd = open("/dev/pinmx", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ioctl(fd, PINMX_IOC_HELLO, &hello)) {
		close(fd);
		return -1;
	}
	return fd;
}

int pmx_set_mode(int fd, uint32_t mode, uint32_t cmin, uint32_t cmax)
{
	struct pinmx_pin_mode_req req = {
		.pin_mode = mode, .chunk_min_pages = cmin,
		.chunk_max_pages = cmax,
	};

	return ioctl(fd, PINMX_IOC_SET_PIN_MODE, &req);
}

int pmx_open_mode(uint32_t mode)
{
	int fd = pmx_open();

	if (fd >= 0 && pmx_set_mode(fd, mode, 0, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

int pmx_declare(int fd, const struct pinmx_segment *segs, uint32_t nr,
		uint32_t flags, uint32_t *id)
{
	struct pinmx_declare req = {
		.segments = (uintptr_t)segs, .nr_segments = nr, .flags = flags,
	};
	int r = ioctl(fd, PINMX_IOC_DECLARE, &req);

	if (!r && id)
		*id = req.region_id;
	return r;
}

int pmx_declare1(int fd, const void *addr, uint64_t len, uint32_t flags,
		 uint32_t *id)
{
	struct pinmx_segment seg = { .vaddr = (uintptr_t)addr, .len = len };

	return pmx_declare(fd, &seg, 1, flags, id);
}

int pmx_destroy(int fd, uint32_t id)
{
	struct pinmx_region_ref req = { .region_id = id };

	return ioctl(fd, PINMX_IOC_DESTROY, &req);
}

int pmx_copy(int fd, int src_fd, uint32_t src, uint64_t src_off,
	     uint32_t dst, uint64_t dst_off, uint64_t len)
{
	struct pinmx_copy req = {
		.src_fd = src_fd, .src_region = src, .src_offset = src_off,
		.dst_region = dst, .dst_offset = dst_off, .len = len,
	};

	return ioctl(fd, PINMX_IOC_COPY, &req);
}

int pmx_range(int fd, unsigned long cmd, uint32_t id, uint64_t off,
	      uint64_t len)
{
	struct pinmx_range req = { .region_id = id, .offset = off, .len = len };

	return ioctl(fd, cmd, &req);
}

int pmx_region_info(int fd, uint32_t id, struct pinmx_region_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->region_id = id;
	return ioctl(fd, PINMX_IOC_REGION_INFO, ri);
}

uint64_t pmx_pinned(int fd, uint32_t id)
{
	struct pinmx_region_info ri;

	if (pmx_region_info(fd, id, &ri))
		return UINT64_MAX;
	return ri.pinned_pages;
}

uint64_t pmx_counter(enum pinmx_counter c)
{
	struct pinmx_counters cnt;
	int fd = open("/dev/pinmx", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return UINT64_MAX;
	if (ioctl(fd, PINMX_IOC_COUNTERS, &cnt))
		cnt.value[c] = UINT64_MAX;
	close(fd);
	return cnt.value[c];
}

/* VmPin of this process in kB, from /proc/self/status. */
long vm_pinned_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static inline uint8_t pattern_byte(size_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i * 2654435761u ^ seed * 40503u;

	return (uint8_t)(x ^ (x >> 13) ^ (x >> 24));
}

/* Fill with a position- and seed-dependent pattern. */
void fill(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pattern_byte(i, seed);
}

/* Index of the first byte differing from fill(seed), or len if none. */
size_t mismatch(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern_byte(i, seed))
			return i;
	return len;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int pmx_write_param(const char *name, const char *value)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/module/pinmx/parameters/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok ? 0 : -1;
}
