/*
 * The same-run baseline of pinmx's one-sided benchmarks (bench-imb's io.pinmx.bench.osc): the same programs, sizes,
 * iteration counts and output format over C ARMCI-MPI. Two ranks; rank 0 is the origin, rank 1 the target.
 *
 *   mpirun -np 2 armci_osc PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS] [-l LOOPS]
 *
 * PROGRAM: osu_put_latency osu_get_latency osu_acc_latency osu_fop_latency osu_swap_latency osu_lock_latency
 * osu_put_bw osu_get_bw armci_strided compute_window. -d divides every iteration count (tests use a large one); -l
 * is how many timed loops each row's median is taken over (default 5).
 * io.pinmx.bench.osc.OscBench documents the rules; keep the two in step.
 */
#include <armci.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LARGE_MESSAGE_BYTES 8192
#define WINDOW_OPERATIONS 32
#define STRIDED_LEADING_DOUBLES 512
#define COMPUTE_OPERATIONS 1000

struct options {
	long max_bytes;
	long divisor;
	int max_n;
	long window_ms;
	int loops;
};

#define MAX_LOOPS 15

static int rank;
static void **slices;
static char *local;
static long slice_bytes;

static long iterations(long base, const struct options *o)
{
	long n = base / o->divisor;

	return n < 1 ? 1 : n;
}

static long latency_iterations(long bytes, const struct options *o)
{
	return iterations(bytes > LARGE_MESSAGE_BYTES ? 1000 : 10000, o);
}

static long latency_skip(long bytes, const struct options *o)
{
	return iterations(bytes > LARGE_MESSAGE_BYTES ? 10 : 100, o);
}

static long bw_iterations(long bytes, const struct options *o)
{
	return iterations(bytes > LARGE_MESSAGE_BYTES ? 20 : 100, o);
}

static long bw_skip(long bytes, const struct options *o)
{
	return iterations(bytes > LARGE_MESSAGE_BYTES ? 2 : 10, o);
}

static int loops;

static void header(const char *title, const char *sync, const char *columns)
{
	if (rank != 0)
		return;
	printf("# %s\n# Implementation: C ARMCI-MPI over Open MPI\n# Synchronization: %s\n"
	       "# Timing: each row is the median of %d timed loops\n# %s\n", title, sync, loops, columns);
	fflush(stdout);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the loops' values (the upper one of an even count), so one descheduling does not decide a row. */
static double median(double *values, int count)
{
	qsort(values, count, sizeof(double), compare_doubles);
	return values[count / 2];
}

static void row(long size, double value)
{
	if (rank != 0)
		return;
	printf("%-10ld%18.3f\n", size, value);
	fflush(stdout);
}

enum op { PUT, GET, ACC, FETCH_ADD, SWAP, LOCK };

/* One timed operation of a latency test on rank 1's slice. */
static void one(enum op op, long bytes)
{
	double scale = 1.0;
	long old;

	switch (op) {
	case PUT:
		ARMCI_Put(local, slices[1], (int)bytes, 1);
		ARMCI_Fence(1);
		break;
	case GET:
		ARMCI_Get(slices[1], local, (int)bytes, 1);
		break;
	case ACC:
		ARMCI_Acc(ARMCI_ACC_DBL, &scale, local, slices[1], (int)bytes, 1);
		ARMCI_Fence(1);
		break;
	case FETCH_ADD:
		ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, slices[1], 1, 1);
		break;
	case SWAP:
		ARMCI_Rmw(ARMCI_SWAP_LONG, &old, slices[1], 1, 1);
		break;
	case LOCK:
		ARMCI_Lock(0, 1);
		ARMCI_Unlock(0, 1);
		break;
	}
}

/* A window of bandwidth tests: WINDOW_OPERATIONS non-blocking operations, completed together. */
static void window(int put, long bytes)
{
	for (int w = 0; w < WINDOW_OPERATIONS; w++) {
		if (put)
			ARMCI_NbPut(local, slices[1], (int)bytes, 1, NULL);
		else
			ARMCI_NbGet(slices[1], local, (int)bytes, 1, NULL);
	}
	ARMCI_WaitAll();
	ARMCI_Fence(1);
}

/*
 * The size sweep of a latency test (windows = 0: us per operation) or a bandwidth test (windows = 1, op PUT or GET:
 * MB/s over windows); each row the median of the loops.
 */
static void sweep(enum op op, int windows, long min_bytes, long max_bytes, const struct options *o)
{
	for (long bytes = min_bytes; bytes <= max_bytes; bytes *= 2) {
		long skip = windows ? bw_skip(bytes, o) : latency_skip(bytes, o);
		long n = windows ? bw_iterations(bytes, o) : latency_iterations(bytes, o);
		double start = 0, v[MAX_LOOPS];

		ARMCI_Barrier();
		if (rank == 0) {
			for (int l = 0; l < o->loops; l++) {
				double us;

				for (long i = 0; i < skip + n; i++) {
					if (i == skip)
						start = MPI_Wtime();
					if (windows)
						window(op == PUT, bytes);
					else
						one(op, bytes);
				}
				us = (MPI_Wtime() - start) * 1e6;
				v[l] = windows ? (double)bytes * WINDOW_OPERATIONS * n / us : us / n;
			}
			row(bytes, median(v, o->loops));
		}
		ARMCI_Barrier();
	}
}

/* An N x N block of doubles out of row-major matrices with STRIDED_LEADING_DOUBLES doubles per row on both sides. */
static double strided_time(enum op op, int pieces_as_calls, int n_doubles, long n)
{
	int stride[1] = { STRIDED_LEADING_DOUBLES * (int)sizeof(double) };
	int count[2] = { n_doubles * (int)sizeof(double), n_doubles };
	double scale = 1.0, start = MPI_Wtime();

	for (long i = 0; i < n; i++) {
		if (!pieces_as_calls) {
			if (op == GET)
				ARMCI_GetS(slices[1], stride, local, stride, count, 1, 1);
			else if (op == PUT)
				ARMCI_PutS(local, stride, slices[1], stride, count, 1, 1);
			else
				ARMCI_AccS(ARMCI_ACC_DBL, &scale, local, stride, slices[1], stride, count, 1, 1);
		} else {
			for (int r = 0; r < n_doubles; r++) {
				long at = (long)r * stride[0];
				char *remote = (char *)slices[1] + at;

				if (op == GET)
					ARMCI_Get(remote, local + at, count[0], 1);
				else if (op == PUT)
					ARMCI_Put(local + at, remote, count[0], 1);
				else
					ARMCI_Acc(ARMCI_ACC_DBL, &scale, local + at, remote, count[0], 1);
			}
		}
	}
	ARMCI_Fence(1);
	return (MPI_Wtime() - start) * 1e6 / n;
}

static long strided_iterations(int n_doubles, const struct options *o)
{
	long n = 40L * 1048576 / ((long)n_doubles * n_doubles * sizeof(double));

	return iterations(n > 1000 ? 1000 : (n < 20 ? 20 : n), o);
}

static void strided(const struct options *o)
{
	for (int nd = 8; nd <= o->max_n; nd *= 2) {
		long n = strided_iterations(nd, o);
		double t[6];
		enum op ops[3] = { GET, PUT, ACC };

		ARMCI_Barrier();
		if (rank == 0) {
			for (int k = 0; k < 6; k++) {
				double loop_t[MAX_LOOPS];

				strided_time(ops[k / 2], k % 2, nd, n / 10 + 1);
				for (int l = 0; l < o->loops; l++)
					loop_t[l] = strided_time(ops[k / 2], k % 2, nd, n);
				t[k] = median(loop_t, o->loops);
			}
			printf("%-10d%14.3f%14.3f%14.3f%14.3f%14.3f%14.3f\n", nd, t[0], t[1], t[2], t[3], t[4], t[5]);
			fflush(stdout);
		}
		ARMCI_Barrier();
	}
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Rank 1 computes for the window without calling ARMCI or MPI; rank 0 issues COMPUTE_OPERATIONS blocking operations
 * of 8 B on it and counts those complete before the window ends.
 */
static void compute_window(const struct options *o)
{
	enum op ops[4] = { PUT, GET, FETCH_ADD, ACC };
	const char *names[4] = { "put", "get", "fetch_add", "acc" };

	for (int k = 0; k < 4; k++) {
		double end;
		long done = 0;

		ARMCI_Barrier();
		end = seconds() + o->window_ms / 1000.0;
		if (rank == 1) {
			volatile long *word = (volatile long *)slices[1];
			long sum = 0;

			while (seconds() < end)
				sum += word[1];
			word[2] = sum;
		} else {
			for (long i = 0; i < COMPUTE_OPERATIONS; i++) {
				one(ops[k], 8);
				if (seconds() < end)
					done++;
			}
			printf("%-10s%12d%12ld%12ld\n", names[k], COMPUTE_OPERATIONS, done, o->window_ms);
			fflush(stdout);
		}
		ARMCI_Barrier();
	}
}

static int run(const char *program, const struct options *o)
{
	int all = strcmp(program, "all") == 0, ran = 0;
	const char *fence = "ARMCI_Fence after each operation";

#define WANTS(name) ((all || strcmp(program, name) == 0) && (ran = 1))
	if (WANTS("osu_put_latency")) {
		header("OSU-style ARMCI Put Latency Test", fence, "Size          Latency (us)");
		sweep(PUT, 0, 1, o->max_bytes, o);
	}
	if (WANTS("osu_get_latency")) {
		header("OSU-style ARMCI Get Latency Test", "blocking get", "Size          Latency (us)");
		sweep(GET, 0, 1, o->max_bytes, o);
	}
	if (WANTS("osu_acc_latency")) {
		header("OSU-style ARMCI Accumulate Latency Test (double)", fence, "Size          Latency (us)");
		sweep(ACC, 0, 8, o->max_bytes, o);
	}
	if (WANTS("osu_fop_latency")) {
		header("OSU-style ARMCI Fetch-and-add Latency Test (long)", "complete on return", "Size          Latency (us)");
		sweep(FETCH_ADD, 0, 8, 8, o);
	}
	if (WANTS("osu_swap_latency")) {
		header("OSU-style ARMCI Swap Latency Test (long)", "complete on return", "Size          Latency (us)");
		sweep(SWAP, 0, 8, 8, o);
	}
	if (WANTS("osu_lock_latency")) {
		header("OSU-style ARMCI Lock+Unlock Latency Test (uncontended)", "unlock completes the holder's operations",
		       "Size          Latency (us)");
		sweep(LOCK, 0, 8, 8, o);
	}
	if (WANTS("osu_put_bw")) {
		header("OSU-style ARMCI Put Bandwidth Test (window 32)", "ARMCI_WaitAll and ARMCI_Fence after each window",
		       "Size      Bandwidth (MB/s)");
		sweep(PUT, 1, 1, o->max_bytes, o);
	}
	if (WANTS("osu_get_bw")) {
		header("OSU-style ARMCI Get Bandwidth Test (window 32)", "ARMCI_WaitAll after each window",
		       "Size      Bandwidth (MB/s)");
		sweep(GET, 1, 1, o->max_bytes, o);
	}
	if (WANTS("armci_strided")) {
		header("ARMCI-perf-style strided 2-D N x N doubles (leading dimension 512)", "blocking; one fence per loop",
		       "N            GetS(us)    Get*N(us)     PutS(us)    Put*N(us)     AccS(us)    Acc*N(us)");
		strided(o);
	}
	if (WANTS("compute_window")) {
		header("Operations completed while the target computes", "blocking 8 B operations, the target never calls ARMCI",
		       "Op             Issued   Completed   Window(ms)");
		compute_window(o);
	}
#undef WANTS
	return ran;
}

int main(int argc, char **argv)
{
	struct options o = { 4194304, 1, 256, 2000, 5 };
	int nprocs, c, ok;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	if (argc < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: armci_osc PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS] [-l LOOPS]\n");
		MPI_Finalize();
		return 2;
	}
	while ((c = getopt(argc - 1, argv + 1, "m:d:n:w:l:")) != -1) {
		switch (c) {
		case 'm': o.max_bytes = atol(optarg); break;
		case 'd': o.divisor = atol(optarg); break;
		case 'n': o.max_n = atoi(optarg); break;
		case 'w': o.window_ms = atol(optarg); break;
		case 'l': o.loops = atoi(optarg); break;
		default:
			if (rank == 0)
				fprintf(stderr, "armci_osc: unknown option -%c\n", optopt);
			MPI_Finalize();
			return 2;
		}
	}
	if (nprocs != 2 || o.max_bytes < 8 || o.divisor < 1 || o.max_n < 8 || o.window_ms < 1 || o.loops < 1 ||
	    o.loops > MAX_LOOPS) {
		if (rank == 0)
			fprintf(stderr, "armci_osc: needs 2 ranks (has %d), -m >= 8, -d >= 1, -n >= 8, -w >= 1, -l 1..%d\n",
				nprocs, MAX_LOOPS);
		MPI_Finalize();
		return 2;
	}
	loops = o.loops;
	ARMCI_Init();
	slice_bytes = o.max_bytes;
	if (slice_bytes < (long)STRIDED_LEADING_DOUBLES * o.max_n * (long)sizeof(double))
		slice_bytes = (long)STRIDED_LEADING_DOUBLES * o.max_n * sizeof(double);
	slices = malloc(nprocs * sizeof(void *));
	ARMCI_Malloc(slices, slice_bytes);
	local = ARMCI_Malloc_local(slice_bytes);
	memset(local, 0, slice_bytes);
	ARMCI_Create_mutexes(rank == 1 ? 1 : 0);
	ok = run(argv[1], &o);
	if (!ok && rank == 0)
		fprintf(stderr, "armci_osc: unknown PROGRAM '%s'\n", argv[1]);
	ARMCI_Destroy_mutexes();
	ARMCI_Free_local(local);
	ARMCI_Free(slices[rank]);
	free(slices);
	ARMCI_Finalize();
	MPI_Finalize();
	return ok ? 0 : 2;
}
