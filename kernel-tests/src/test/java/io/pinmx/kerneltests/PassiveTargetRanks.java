package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The ranks of {@link RmaPassiveTargetKernelTest}: rank 1, the target, allocates its slice, says it is ready (file
 * {@value #TARGET_READY} in the directory given) and waits in a barrier, where the test stops it; rank 0, the origin,
 * waits for file {@value #TARGET_STOPPED}, does {@link PassiveTargetOps} and a fence on the stopped target and
 * times 8-byte put + fence rounds to it, then creates {@value #ORIGIN_DONE}; once the test let the target go on
 * (removing {@value #TARGET_STOPPED}) the origin times them again with the target running; both meet in a barrier,
 * the target compares its slice with the image byte for byte and the origin gets it back and does the same; then
 * the target holds an access epoch while the origin writes into it ({@link PassiveEpochCheck}). Prints
 * "PASSED passive" on rank 0; exits 1 (with the first difference on stderr) on either rank otherwise.
 * Arguments: {@code passive DIRECTORY}.
 */
public final class PassiveTargetRanks
{
    static final String TARGET_READY = "target-ready";
    static final String TARGET_STOPPED = "target-stopped";
    static final String ORIGIN_DONE = "origin-done";
    private static final long FILE_DEADLINE_S = 300;
    private static final int PUT_FENCE_ROUNDS = 200;

    private PassiveTargetRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final RankFiles files = new RankFiles(Path.of(args[1]), FILE_DEADLINE_S);
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job); Arena arena = Arena.ofConfined())
        {
            final RmaAllocation slices = rma.alloc(PassiveTargetOps.SLICE_BYTES);
            rma.barrier();
            final boolean origin = 0 == rma.rank();
            final PassiveTargetOps ops = new PassiveTargetOps(origin ? rma : null, slices, 1, arena);
            if (origin)
            {
                files.await(TARGET_STOPPED, "the test did not stop the target");
                final long started = System.nanoTime();
                ops.runAll();
                rma.fence(1);
                System.out.printf("# origin: every operation on the stopped target done and fenced in %.1f ms%n",
                    (System.nanoTime() - started) / 1e6);
                final long stoppedNs = putFenceMedianNs(rma, slices, arena);
                files.create(ORIGIN_DONE);
                files.awaitGone(TARGET_STOPPED, "the test did not resume the target");
                System.out.printf("# 8 B put + fence through the module, median of %d: target stopped %.1f us, " +
                    "running %.1f us%n", PUT_FENCE_ROUNDS, stoppedNs / 1e3, putFenceMedianNs(rma, slices, arena) / 1e3);
            }
            else
            {
                ops.runAll();
                files.create(TARGET_READY);
            }
            rma.barrier();
            final MemorySegment seen;
            if (origin)
            {
                seen = arena.allocate(PassiveTargetOps.SLICE_BYTES, 8);
                rma.get(slices, 1, 0, seen);
            }
            else
            {
                seen = slices.local();
            }
            final long differs = ops.image().mismatch(seen);
            if (-1 != differs)
            {
                System.err.println("rank " + rma.rank() + ": the target's slice differs at byte " + differs + ": " +
                    seen.get(ValueLayout.JAVA_BYTE, differs) + ", expected " +
                    ops.image().get(ValueLayout.JAVA_BYTE, differs));
                System.exit(1);
            }
            final String epoch = PassiveEpochCheck.run(rma, files, arena);
            if (null != epoch)
            {
                System.err.println("rank " + rma.rank() + ": " + epoch);
                System.exit(1);
            }
            rma.free(slices);
            if (origin)
            {
                System.out.println("PASSED passive");
            }
        }
    }

    /**
     * @return the median time of an 8-byte put and a fence to rank 1, over {@value #PUT_FENCE_ROUNDS} rounds, at a
     *         word the image leaves zero and restored to zero after.
     */
    private static long putFenceMedianNs(final Rma rma, final RmaAllocation slices, final Arena arena)
    {
        final MemorySegment word = arena.allocate(Long.BYTES, Long.BYTES);
        final long[] ns = new long[PUT_FENCE_ROUNDS];
        for (int i = 0; i < PUT_FENCE_ROUNDS; i++)
        {
            word.set(ValueLayout.JAVA_LONG, 0, i + 1);
            final long started = System.nanoTime();
            rma.put(word, slices, 1, PassiveTargetOps.SCRATCH_OFFSET);
            rma.fence(1);
            ns[i] = System.nanoTime() - started;
        }
        rma.values().putLong(0, slices, 1, PassiveTargetOps.SCRATCH_OFFSET);
        rma.fence(1);
        Arrays.sort(ns);
        return ns[PUT_FENCE_ROUNDS / 2];
    }
}
