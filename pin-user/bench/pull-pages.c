/*
 * What a same-host pull of 4 MiB costs by the kind of pages under it: process_vm_readv of a child process's
 * buffer into this process's, against memcpy of 4 MiB within this process, per page kind of source and target.
 * Page kinds: 0 = 4 KiB pages (MADV_NOHUGEPAGE), 1 = MADV_HUGEPAGE before the first touch, 2 = written on 4 KiB
 * pages, then MADV_COLLAPSE (what HugePageAdvice does to a declared region).
 *
 *   gcc -O2 -o /tmp/pull-pages pin-user/bench/pull-pages.c
 *   /tmp/pull-pages SOURCE_KIND TARGET_KIND IOVECS [REPS]     e.g. /tmp/pull-pages 2 0 1
 *
 * Prints each side's AnonHugePages and the median and 10th percentile of REPS (default 300) copies of each kind.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define BUFFER_BYTES (4UL << 20)
#define HUGE_PAGE_BYTES (2UL << 20)
#define WARMUP_REPS 20
#define MAX_IOVECS 64

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static char *buffer(int kind)
{
	char *raw = mmap(NULL, BUFFER_BYTES + HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *aligned;

	if (raw == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	aligned = (char *)(((unsigned long)raw + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1));
	if (kind < 2)
		madvise(aligned, BUFFER_BYTES, kind == 1 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(aligned, kind + 1, BUFFER_BYTES);
	if (kind == 2 && madvise(aligned, BUFFER_BYTES, MADV_COLLAPSE))
		perror("madvise(MADV_COLLAPSE)");
	return aligned;
}

static long anon_huge_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "AnonHugePages:", 14))
			kib = atol(line + 14);
	if (f)
		fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	int source_kind, target_kind, iovecs, reps, pipe_fds[2], i;
	struct iovec local[MAX_IOVECS], remote[MAX_IOVECS];
	char *source, *target, *own;
	double *pull_us, *memcpy_us;
	size_t chunk;
	pid_t child;

	if (argc < 4) {
		fprintf(stderr, "usage: %s SOURCE_KIND TARGET_KIND IOVECS [REPS]\n", argv[0]);
		return 2;
	}
	source_kind = atoi(argv[1]);
	target_kind = atoi(argv[2]);
	iovecs = atoi(argv[3]);
	reps = argc > 4 ? atoi(argv[4]) : 300;
	if (source_kind < 0 || source_kind > 2 || target_kind < 0 || target_kind > 2 ||
	    iovecs < 1 || iovecs > MAX_IOVECS || reps < 10) {
		fprintf(stderr, "kinds 0..2, IOVECS 1..%d, REPS >= 10\n", MAX_IOVECS);
		return 2;
	}
	if (pipe(pipe_fds))
		return 1;
	child = fork();
	if (child == 0) {
		source = buffer(source_kind);
		fprintf(stderr, "source AnonHugePages %ld kB\n", anon_huge_kib());
		if (write(pipe_fds[1], &source, sizeof(source)) != sizeof(source))
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(pipe_fds[0], &source, sizeof(source)) != sizeof(source))
		return 1;
	target = buffer(target_kind);
	fprintf(stderr, "target AnonHugePages %ld kB\n", anon_huge_kib());
	own = buffer(source_kind);
	pull_us = calloc(reps, sizeof(double));
	memcpy_us = calloc(reps, sizeof(double));
	chunk = BUFFER_BYTES / iovecs;
	for (i = 0; i < iovecs; i++) {
		local[i].iov_base = target + i * chunk;
		local[i].iov_len = chunk;
		remote[i].iov_base = source + i * chunk;
		remote[i].iov_len = chunk;
	}
	for (i = 0; i < reps + WARMUP_REPS; i++) {
		double start = now_us();

		if (process_vm_readv(child, local, iovecs, remote, iovecs, 0) != (ssize_t)(chunk * iovecs)) {
			perror("process_vm_readv");
			kill(child, SIGKILL);
			return 1;
		}
		if (i >= WARMUP_REPS)
			pull_us[i - WARMUP_REPS] = now_us() - start;
		start = now_us();
		memcpy(target, own, BUFFER_BYTES);
		if (i >= WARMUP_REPS)
			memcpy_us[i - WARMUP_REPS] = now_us() - start;
	}
	qsort(pull_us, reps, sizeof(double), by_value);
	qsort(memcpy_us, reps, sizeof(double), by_value);
	printf("source %d target %d iovecs %d: process_vm_readv 4 MiB median %.1f us p10 %.1f | memcpy median %.1f us p10 %.1f\n",
	       source_kind, target_kind, iovecs, pull_us[reps / 2], pull_us[reps / 10],
	       memcpy_us[reps / 2], memcpy_us[reps / 10]);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}
