/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the pinmx C tests and the benchmark. */
#ifndef PINMX_TEST_H
#define PINMX_TEST_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../include/uapi/pinmx.h"

#define PAGE	4096UL

/* Report a failed check on the TAP diagnostic channel and fail the test. */
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: check failed: %s: ", __FILE__,	\
			       __LINE__, #cond);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			return 1;					\
		}							\
	} while (0)

/* The call must fail with errno @err. */
#define CHECK_ERRNO(call, err)						\
	do {								\
		errno = 0;						\
		long __r = (call);					\
		CHECK(__r == -1 && errno == (err),			\
		      "%s returned %ld errno %d (%s), expected %s",	\
		      #call, __r, errno, strerror(errno), #err);	\
	} while (0)

/* The call must succeed (return >= 0). */
#define CHECK_OK(call)							\
	do {								\
		errno = 0;						\
		long __r = (call);					\
		CHECK(__r >= 0, "%s failed: %s", #call, strerror(errno)); \
	} while (0)

int pmx_open(void);
int pmx_open_mode(uint32_t mode);
int pmx_set_mode(int fd, uint32_t mode, uint32_t cmin, uint32_t cmax);
int pmx_declare(int fd, const struct pinmx_segment *segs, uint32_t nr,
		uint32_t flags, uint32_t *id);
int pmx_declare1(int fd, const void *addr, uint64_t len, uint32_t flags,
		 uint32_t *id);
int pmx_destroy(int fd, uint32_t id);
int pmx_copy(int fd, int src_fd, uint32_t src, uint64_t src_off,
	     uint32_t dst, uint64_t dst_off, uint64_t len);
int pmx_range(int fd, unsigned long cmd, uint32_t id, uint64_t off,
	      uint64_t len);
int pmx_region_info(int fd, uint32_t id, struct pinmx_region_info *ri);
uint64_t pmx_pinned(int fd, uint32_t id);
uint64_t pmx_counter(enum pinmx_counter c);
/* Write module parameter @name (root); 0 or -1. */
int pmx_write_param(const char *name, const char *value);
long vm_pinned_kb(void);
void *map_anon(size_t len);
void fill(void *buf, size_t len, uint32_t seed);
size_t mismatch(const void *buf, size_t len, uint32_t seed);
uint64_t now_ns(void);

#endif /* PINMX_TEST_H */
