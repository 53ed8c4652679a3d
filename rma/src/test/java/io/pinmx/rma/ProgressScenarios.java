package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;
import static io.pinmx.rma.RmaScenarios.repetitions;

/**
 * The {@link RmaScenarios} about progress and faults: a target that computes and never calls the library while the
 * others' operations on it complete, and a target that dies.
 */
final class ProgressScenarios
{
    private static final long PACKED_GET_BYTES = 32 * 1024;
    private final Rma rma;
    private final Arena arena;

    ProgressScenarios(final Rma rma, final Arena arena)
    {
        this.rma = rma;
        this.arena = arena;
    }

    // ---------------------------------------------------------------- unilateral progress

    /**
     * Rank 0 computes without calling the library while every other rank's operations on it complete: its loop
     * only reads a word of its own slice (a plain load), which the others' last fetch-and-adds raise when they are
     * done, and gives up after 60 s. Ending before that proves the operations were served without it. First every
     * kind of operation; then gets alone (contiguous, strided, vector), during which rank 0's data server serves
     * nothing but the final fetch-and-adds, the gets the cost model chose to pack and the small blocking contiguous
     * gets it answers with the bytes: the drivers serve the rest.
     */
    void unilateral()
    {
        final int operations = repetitions(100);
        final long doneAt = 64;
        final long getsDoneAt = 72;
        final long patternAt = 1024;
        final RmaAllocation a = rma.alloc(4096);
        rma.barrier();
        if (0 == rma.rank())
        {
            computeUntilOthersRaise(a, doneAt);
        }
        else
        {
            for (int i = 0; i < operations; i++)
            {
                rma.atomics().fetchAndAdd(a, 0, 0, 1);
                rma.values().putLong(i, a, 0, 8L * rma.rank());
                final long back = rma.values().getLong(a, 0, 8L * rma.rank());
                final int at = i;
                check(back == i, () -> "operation " + at + " read " + back);
            }
            rma.atomics().fetchAndAdd(a, 0, doneAt, 1);
        }
        rma.barrier();
        check(rma.values().getInt(a, 0, 0) == operations * (rma.size() - 1), () -> "counter " + rma.values().getInt(a, 0, 0));
        if (0 == rma.rank())
        {
            for (long i = patternAt; i < 4096; i++)
            {
                a.local().set(ValueLayout.JAVA_BYTE, i, pattern(i));
            }
        }
        rma.barrier();
        // Sampled between two barriers: after every earlier request was served, before any get can reach rank 0 (a
        // rank leaving a barrier first may send its first get before the last one has left it).
        final long servedBefore = rma.protocols().dataServerRequests();
        final long packedBefore = rma.protocols().counts().pack();
        final long servedGetsBefore = rma.protocols().counts().served();
        rma.barrier();
        long served = 0;
        if (0 == rma.rank())
        {
            computeUntilOthersRaise(a, getsDoneAt);
            served = rma.protocols().dataServerRequests() - servedBefore;
        }
        else
        {
            for (int i = 0; i < operations; i++)
            {
                readPatternOfRank0(a, patternAt + 8L * i);
            }
            rma.atomics().fetchAndAdd(a, 0, getsDoneAt, 1);
        }
        // A get the model packed is one request the target's data server packs, a small blocking contiguous one a
        // request it answers with the bytes; every other get is the drivers', and so is the final fetch-and-add where
        // the driver applies it itself (the kernel module).
        final boolean fetchAddServed = 0 != rma.rank() && RankTier.DRIVER == rma.tier(0) && !rma.driverWrites(a, 0);
        // a passive target's small gets are the driver's pulls too: its data server may not run
        final boolean passiveSeen = 0 != rma.rank() && RankTier.DRIVER == rma.tier(0) && rma.driverWrites(a, 0);
        final long[] byServer = rma.messages().sum(new long[] {rma.protocols().counts().pack() - packedBefore,
            rma.protocols().counts().served() - servedGetsBefore, fetchAddServed ? 1 : 0, passiveSeen ? 1 : 0});
        final long packed = byServer[0];
        final long servedGets = byServer[1];
        final long servedFetchAdds = byServer[2];
        if (0 == rma.rank())
        {
            int throughTheDriver = 0;
            for (int r = 1; r < rma.size(); r++)
            {
                throughTheDriver += RankTier.DRIVER == rma.tier(r) ? 1 : 0;
            }
            final long expected = servedFetchAdds + packed + servedGets;
            final long count = served;
            check(count == expected, () -> "rank 0's data server served " + count + " requests while the others " +
                "only read its slice, expected " + expected + " (" + servedFetchAdds + " final fetch-and-adds, " +
                packed + " packed gets and " + servedGets + " small contiguous ones)");
            final boolean passive = byServer[3] > 0;
            check(passive ? 0 == servedGets : servedGets > 0 || throughTheDriver == 0 || !"auto".equals(
                System.getenv().getOrDefault(RmaOptions.CONTIGUOUS_VARIABLE, "auto")), () -> passive ?
                "rank 0, a passive target, had " + servedGets + " small contiguous gets served by its data server" :
                "no small contiguous get was served");
        }
        rma.barrier();
        rma.free(a);
    }

    private static byte pattern(final long offset)
    {
        return (byte)(offset * 29 + 3);
    }

    /** Reads rank 0's pattern at {@code at} by a contiguous, a strided and a vector get, and checks all three. */
    private void readPatternOfRank0(final RmaAllocation a, final long at)
    {
        final MemorySegment contiguous = arena.allocate(256);
        rma.get(a, 0, at, contiguous);
        final MemorySegment strided = arena.allocate(16 * 6);
        rma.getStrided(a, 0, at, new long[] {40}, strided, new long[] {16}, new long[] {16, 6}, 1);
        final MemorySegment vector = arena.allocate(5 * 8);
        rma.getVector(new IoVector[] {new IoVector(vector, new long[] {0, 8, 16, 24, 32},
            new long[] {at + 200, at, at + 96, at + 8, at + 248}, 8)}, a, 0);
        for (int i = 0; i < 256; i++)
        {
            final int b = i;
            check(contiguous.get(ValueLayout.JAVA_BYTE, i) == pattern(at + i),
                () -> "contiguous get of rank 0's byte " + (at + b));
        }
        for (int piece = 0; piece < 6; piece++)
        {
            for (int i = 0; i < 16; i++)
            {
                final long remote = at + 40L * piece + i;
                check(strided.get(ValueLayout.JAVA_BYTE, 16L * piece + i) == pattern(remote),
                    () -> "strided get of rank 0's byte " + remote);
            }
        }
        final long[] remotes = {at + 200, at, at + 96, at + 8, at + 248};
        for (int piece = 0; piece < remotes.length; piece++)
        {
            for (int i = 0; i < 8; i++)
            {
                final long remote = remotes[piece] + i;
                check(vector.get(ValueLayout.JAVA_BYTE, 8L * piece + i) == pattern(remote),
                    () -> "vector get of rank 0's byte " + remote);
            }
        }
    }

    /** Rank 0 computes, never calling the library, until every other rank raised the word (at most 60 s). */
    private void computeUntilOthersRaise(final RmaAllocation a, final long doneAt)
    {
        final VarHandle word = ValueLayout.JAVA_INT.varHandle();
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long x = 1;
        while ((int)word.getVolatile(a.local(), doneAt) < rma.size() - 1 && System.nanoTime() < giveUp)
        {
            for (int i = 0; i < 10_000; i++)
            {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        final long seenX = x;
        check((int)word.getVolatile(a.local(), doneAt) == rma.size() - 1,
            () -> "the computing rank 0 waited 60 s and the others' operations were not all served (" + seenX + ")");
    }

    // ---------------------------------------------------------------- progress calls

    /**
     * {@link Rma#progress()} offers the CPU only while pulls reach this rank: after a barrier nobody pulls, so every
     * rank's call says no; then every other rank gets a block from rank 0, whose next call says yes through the driver
     * (the gets were pulls its endpoint served) and no on the shared-memory tier (copies), and the call after that no.
     */
    void progressCalls()
    {
        final long bytes = 64 * 1024;
        final RmaAllocation a = rma.alloc(bytes);
        rma.barrier();
        rma.progress();
        rma.barrier();
        final boolean idle = rma.progress();
        check(!idle, () -> "rank " + rma.rank() + ": progress offered the CPU with no pull aimed at it");
        rma.barrier();
        if (0 != rma.rank())
        {
            final MemorySegment into = arena.allocate(bytes);
            rma.get(a, 0, 0, into);
        }
        rma.barrier();
        if (0 == rma.rank())
        {
            final boolean pulled = RankTier.DRIVER == rma.tier(1);
            final boolean offered = rma.progress();
            check(offered == pulled, () -> "rank 0 pulled " + pulled + ", progress offered " + offered);
            check(!rma.progress(), () -> "rank 0: progress offered the CPU again with no new pull");
        }
        rma.barrier();
        rma.free(a);
    }

    // ---------------------------------------------------------------- a target that dies

    /**
     * The last rank exits abruptly (status 0, so the launcher lets the others run); rank 0's operations on it fail
     * naming it within the deadline, and operations among the survivors still work.
     */
    void killedTarget()
    {
        final RmaAllocation a = rma.alloc(PACKED_GET_BYTES * 2);
        final int victim = rma.size() - 1;
        rma.barrier();
        if (rma.rank() == victim)
        {
            Runtime.getRuntime().halt(0);
        }
        if (0 == rma.rank())
        {
            // The endpoint notices a dead rank after the peer timeout of silence; give it two and a half.
            final long withinMs = Math.max(5_000, 5 * Long.parseLong(System.getenv().getOrDefault(
                "PINMX_PEER_TIMEOUT_MS", "5000")) / 2);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(withinMs);
            RmaException failure = null;
            while (null == failure && System.nanoTime() < deadline)
            {
                try
                {
                    // the fence waits for the put's answer (the first write since a fence asks for one)
                    rma.values().putLong(1, a, victim, 0);
                    rma.fence(victim);
                }
                catch (final RmaException ex)
                {
                    failure = ex;
                }
            }
            final RmaException seen = failure;
            check(null != seen && seen.getMessage().contains("rank " + victim),
                () -> "operations on the dead rank " + victim + " did not fail naming it within " + withinMs + " ms: " +
                    seen);
            expect(RmaException.class, "rank " + victim, () -> rma.values().getLong(a, victim, 0));
            // a packed get large enough to be pulled from the target's pack area
            rma.protocols().force(StridedProtocol.PACK, ContiguousProtocol.AUTO);
            final MemorySegment rows = Arena.ofAuto().allocate(PACKED_GET_BYTES);
            expect(RmaException.class, "rank " + victim, () -> rma.getStrided(a, victim, 0, new long[] {1024}, rows,
                new long[] {512}, new long[] {512, PACKED_GET_BYTES / 512}, 1));
            rma.values().putLong(7, a, 0, 0);
            check(7 == rma.values().getLong(a, 0, 0), () -> "survivor's own slice");
            System.out.println("PASSED killed");
        }
        System.exit(0);
    }
}
