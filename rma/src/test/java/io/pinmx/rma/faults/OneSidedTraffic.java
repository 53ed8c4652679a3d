package io.pinmx.rma.faults;

import io.pinmx.job.Job;
import io.pinmx.rma.AccumulateScale;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * One-sided traffic from this rank to the other one of a two-rank job, each result checked exactly. A round puts a
 * block (sizes from 64 B to 128 KiB in turn) into this rank's put area on the target, reads every other quarter-row
 * of it back by a strided get and compares it with what was put, accumulates eight longs into the target's sums, and
 * takes a fetch-and-add ticket there whose old value must be the number of rounds before it (only this rank adds to
 * that counter). {@link #checkTarget} then checks, on each rank, the sums and the counter that the other rank's
 * rounds left in its own slice.
 */
final class OneSidedTraffic
{
    private static final long SUMS_OFFSET = 0;
    private static final int SUMS = 8;
    private static final long TICKET_OFFSET = 512;
    private static final long PUT_AREA_OFFSET = 4096;
    private static final long[] BLOCK_BYTES = {64, 2048, 24 * 1024, 128 * 1024};
    private static final long PUT_AREA_BYTES = 256 * 1024;
    private static final int ROWS = 4;

    private final Rma rma;
    private final RmaAllocation slices;
    private final int target;
    private final MemorySegment block;
    private final MemorySegment readBack;
    private final MemorySegment addends;
    private long rounds;

    /** Collective: allocates the slices both ranks use. */
    OneSidedTraffic(final Rma rma, final Arena arena)
    {
        this.rma = rma;
        this.slices = rma.alloc(PUT_AREA_OFFSET + PUT_AREA_BYTES);
        this.target = 1 - rma.rank();
        this.block = arena.allocate(BLOCK_BYTES[BLOCK_BYTES.length - 1]);
        this.readBack = arena.allocate(BLOCK_BYTES[BLOCK_BYTES.length - 1]);
        this.addends = arena.allocate(ValueLayout.JAVA_LONG, SUMS);
    }

    /** One round of put, strided get, accumulate and fetch-and-add to the other rank. */
    void round()
    {
        final long r = rounds;
        final long bytes = BLOCK_BYTES[(int)(r % BLOCK_BYTES.length)];
        final long offset = PUT_AREA_OFFSET + (r * 4096) % (PUT_AREA_BYTES - bytes + 1) / 8 * 8;
        final long seed = (long)rma.rank() << 40 | r;
        final MemorySegment out = block.asSlice(0, bytes);
        Payloads.fill(out, seed);
        rma.put(out, slices, target, offset);

        // Rows of bytes/ROWS/2 bytes, every other one: half of the block, in ROWS pieces of the remote side.
        final long width = bytes / ROWS / 2;
        final MemorySegment in = readBack.asSlice(0, width * ROWS);
        in.fill((byte)0);
        rma.getStrided(slices, target, offset, new long[] {2 * width}, in, new long[] {width},
            new long[] {width, ROWS}, 1);
        for (int row = 0; row < ROWS; row++)
        {
            for (long b = 0; b < width; b++)
            {
                final byte expected = Payloads.byteAt(seed, row * 2 * width + b);
                if (in.get(ValueLayout.JAVA_BYTE, row * width + b) != expected)
                {
                    throw new AssertionError("rank " + rma.rank() + " round " + r + ": strided get of the " + bytes +
                        " B block put at " + offset + " on rank " + target + " differs in row " + row + " at byte " + b);
                }
            }
        }

        for (int i = 0; i < SUMS; i++)
        {
            addends.setAtIndex(ValueLayout.JAVA_LONG, i, addend(r, i));
        }
        rma.acc(AccumulateScale.ofLong(1), addends, slices, target, SUMS_OFFSET);

        final long ticket = rma.atomics().fetchAndAddLong(slices, target, TICKET_OFFSET, 1);
        if (ticket != r)
        {
            throw new AssertionError("rank " + rma.rank() + " round " + r + ": fetch-and-add on rank " + target +
                " returned " + ticket + ", expected " + r);
        }
        rounds = r + 1;
    }

    long rounds()
    {
        return rounds;
    }

    /**
     * Collective, after every round of both ranks and a fence: checks that this rank's slice holds exactly the sums
     * and the ticket count of the other rank's rounds.
     */
    void checkTarget(final Job job)
    {
        final long theirRounds = ByteBuffer.wrap(job.allGather(ByteBuffer.allocate(8).putLong(0, rounds).array())
            .get(target)).getLong();
        final MemorySegment mine = slices.local();
        final long tickets = mine.get(ValueLayout.JAVA_LONG, TICKET_OFFSET);
        if (tickets != theirRounds)
        {
            throw new AssertionError("rank " + rma.rank() + ": ticket counter " + tickets + " after " + theirRounds +
                " fetch-and-adds of rank " + target);
        }
        for (int i = 0; i < SUMS; i++)
        {
            long expected = 0;
            for (long r = 0; r < theirRounds; r++)
            {
                expected += addend(r, i);
            }
            final long sum = mine.get(ValueLayout.JAVA_LONG, SUMS_OFFSET + 8L * i);
            if (sum != expected)
            {
                throw new AssertionError("rank " + rma.rank() + ": sum " + i + " is " + sum + " after " + theirRounds +
                    " accumulates of rank " + target + ", expected " + expected);
            }
        }
    }

    private static long addend(final long round, final int i)
    {
        return (round + 1) * (i + 1) + (round << 20);
    }
}
