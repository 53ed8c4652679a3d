package io.pinmx.kerneltests;

import io.pinmx.rma.AccumulateScale;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaHandle;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An access epoch on a passive target ({@link PassiveTargetRanks}' last part): rank 1, whose slices its module
 * writes, opens an epoch on a small allocation and reads its words again and again while rank 0 sends a put, an
 * accumulate and a fetch-and-add there through the module: none may land between two of the target's reads inside
 * the epoch, and once the target ends it every one must land, each once, the fetch-and-add returning the word as it
 * was and returning only after the target began ending the epoch. Ending an epoch that is not open is refused before
 * and after. Files in the job's directory order the ranks: {@value #EPOCH_OPEN} (target), {@value #ORIGIN_SENT}
 * (origin), {@value #EPOCH_ENDING} (target, just before its accessEnd).
 */
final class PassiveEpochCheck
{
    static final String EPOCH_OPEN = "epoch-open";
    static final String ORIGIN_SENT = "origin-sent";
    static final String EPOCH_ENDING = "epoch-ending";
    private static final int TARGET = 1;
    private static final long PUT_AT = 0;
    private static final long ACC_AT = 8;
    private static final long FETCH_ADD_AT = 16;
    private static final long WORDS_BYTES = 64;
    private static final long PUT_VALUE = 0x5EED_0001L;
    private static final long ACC_VALUE = 41;
    /** How long the target keeps reading inside the epoch after the origin sent: many module resends. */
    private static final long HELD_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(120);
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private PassiveEpochCheck()
    {
    }

    /**
     * Collective over both ranks.
     *
     * @return null, or what went wrong on this rank.
     */
    static String run(final Rma rma, final RankFiles files, final Arena arena) throws IOException
    {
        final RmaAllocation words = rma.alloc(TARGET == rma.rank() ? WORDS_BYTES : 0);
        rma.barrier();
        final String wrong = TARGET == rma.rank() ? target(rma, words, files) : origin(rma, words, files, arena);
        rma.barrier();
        rma.free(words);
        return wrong;
    }

    private static String target(final Rma rma, final RmaAllocation words, final RankFiles files) throws IOException
    {
        final String unopened = endRefused(rma, words);
        if (null != unopened)
        {
            return unopened;
        }
        final MemorySegment mine = words.local();
        rma.epochs().accessBegin(words);
        files.create(EPOCH_OPEN);
        files.await(ORIGIN_SENT, "the origin did not send");
        final long until = System.nanoTime() + HELD_NS;
        long reads = 0;
        while (System.nanoTime() - until < 0)
        {
            for (long at = 0; at < WORDS_BYTES; at += Long.BYTES)
            {
                final long seen = (long)WORD.getVolatile(mine, at);
                if (0 != seen)
                {
                    return "word " + at + " became " + seen + " inside the epoch (read " + reads +
                        "): a remote write landed in it";
                }
            }
            reads++;
        }
        files.create(EPOCH_ENDING);
        rma.epochs().accessEnd(words);
        final long deadline = System.nanoTime() + DEADLINE_NS;
        while (PUT_VALUE != (long)WORD.getVolatile(mine, PUT_AT) || ACC_VALUE != (long)WORD.getVolatile(mine, ACC_AT) ||
            1 != (long)WORD.getVolatile(mine, FETCH_ADD_AT))
        {
            if (System.nanoTime() - deadline > 0)
            {
                return "after the epoch the words are " + mine.get(ValueLayout.JAVA_LONG, PUT_AT) + ", " +
                    mine.get(ValueLayout.JAVA_LONG, ACC_AT) + ", " + mine.get(ValueLayout.JAVA_LONG, FETCH_ADD_AT) +
                    ", expected " + PUT_VALUE + ", " + ACC_VALUE + ", 1";
            }
            LockSupport.parkNanos(100_000);
        }
        System.out.printf("# target: no remote write in %d reads of its epoch; all three landed after it%n", reads);
        return endRefused(rma, words);
    }

    private static String origin(final Rma rma, final RmaAllocation words, final RankFiles files, final Arena arena)
        throws IOException
    {
        files.await(EPOCH_OPEN, "the target did not open its epoch");
        final MemorySegment put = arena.allocate(Long.BYTES, Long.BYTES);
        put.set(ValueLayout.JAVA_LONG, 0, PUT_VALUE);
        final MemorySegment acc = arena.allocate(Long.BYTES, Long.BYTES);
        acc.set(ValueLayout.JAVA_LONG, 0, ACC_VALUE);
        final RmaHandle handle = rma.handle();
        rma.nbPut(put, words, TARGET, PUT_AT, handle);
        final RmaHandle accHandle = rma.handle();
        rma.nbAcc(AccumulateScale.ofLong(1), acc, words, TARGET, ACC_AT, accHandle);
        files.create(ORIGIN_SENT);
        final long old = rma.atomics().fetchAndAddLong(words, TARGET, FETCH_ADD_AT, 1);
        final boolean ending = files.exists(EPOCH_ENDING);
        handle.await();
        accHandle.await();
        rma.fence(TARGET);
        if (0 != old)
        {
            return "the fetch-and-add returned " + old + ", expected 0";
        }
        if (!ending)
        {
            return "the fetch-and-add completed before the target began ending its epoch";
        }
        final MemorySegment seen = arena.allocate(WORDS_BYTES, Long.BYTES);
        rma.get(words, TARGET, 0, seen);
        if (PUT_VALUE != seen.get(ValueLayout.JAVA_LONG, PUT_AT) || ACC_VALUE != seen.get(ValueLayout.JAVA_LONG, ACC_AT) ||
            1 != seen.get(ValueLayout.JAVA_LONG, FETCH_ADD_AT))
        {
            return "the origin got " + seen.get(ValueLayout.JAVA_LONG, PUT_AT) + ", " +
                seen.get(ValueLayout.JAVA_LONG, ACC_AT) + ", " + seen.get(ValueLayout.JAVA_LONG, FETCH_ADD_AT);
        }
        System.out.println("# origin: put, accumulate and fetch-and-add held through the target's epoch, then landed");
        return null;
    }

    private static String endRefused(final Rma rma, final RmaAllocation words)
    {
        try
        {
            rma.epochs().accessEnd(words);
            return "accessEnd without an open epoch was accepted";
        }
        catch (final IllegalStateException e)
        {
            return e.getMessage().contains("no epoch is open") ? null : "accessEnd's refusal says: " + e.getMessage();
        }
    }
}
