package io.pinmx.apps.mg;

import io.pinmx.rma.RankTier;
import io.pinmx.rma.ReduceOp;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaException;
import io.pinmx.rma.RmaHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * MG's slabs over the one-sided layer, as ARMCI's MG moves them, in one of two {@link GhostMotion}s. PUT: each rank
 * puts its bottom and top interior planes into its neighbours' ghost slots without waiting for them and notifies each
 * neighbour ({@code armci_notify}: the exchange's number lands in the neighbour's flag for this side after the planes,
 * no fence); a rank reads its ghost slots once both flags show the exchange. GET: each rank copies its bottom and top
 * interior planes into its own slots and notifies both neighbours; a rank gets a neighbour's plane once that
 * neighbour's notice of the exchange is there. A notice to a rank reached through the driver is a message
 * ({@code armci_msg_snd}, not waited for: it completes on the neighbour's acknowledgement): a flag would be a put
 * served by the neighbour's data server, and the get that follows it would first fence that neighbour, a round trip
 * through its data server, before its pull. A same-host neighbour's notice is a store into its flag. Either way the
 * slots alternate between two sets on successive exchanges: a set is written again only after the neighbour notified
 * its next exchange, which it starts after it finished with the set. A level held whole is assembled with a barrier:
 * each rank puts its planes into every other rank's copy.
 */
final class RmaSlabTransport implements SlabTransport, AutoCloseable
{
    private static final long DOUBLE_BYTES = Double.BYTES;
    private static final int SETS = 2;
    private static final int LOWER_GHOST = 0;
    private static final int UPPER_GHOST = 1;
    /** Per level in {@link #levelSeconds()}: exchanges, seconds, longest exchange's seconds. */
    static final int LEVEL_FIELDS = 3;
    /** GET through the driver: the tags of the notices a rank sends its upper and its lower neighbour. */
    private static final int NOTICE_TO_UPPER_TAG = 43_001;
    private static final int NOTICE_TO_LOWER_TAG = 43_002;
    /** A neighbour that has not notified within this long is taken for dead or stuck. */
    private static final Duration NOTIFY_DEADLINE = Duration.ofSeconds(120);
    /**
     * The least computing between two progress calls: a plane's pull arrives as many requests, and a yield for each
     * would hand the CPU to the host's other processes as often.
     */
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.MICROSECONDS.toNanos(500);

    private final Rma rma;
    private final GhostMotion motion;
    private final Arena arena = Arena.ofShared();
    /** Per level: the offset in {@link #ghosts} of its slots, two sets of a lower and an upper plane. */
    private final long[] ghostOffsets;
    private final RmaAllocation ghosts;
    /** Per rank: the last exchange its lower neighbour notified, then its upper neighbour's. */
    private final RmaAllocation flags;
    private final RmaAllocation wholeLevels;
    private final long wholeSetBytes;
    private final MemorySegment staging;
    /** PUT: per set, this rank's planes as sent, untouched until {@link #putSends} of the set completes. */
    private final MemorySegment putStaging;
    private final RmaHandle[] putSends;
    /** GET: the exchange's number in the notices sent, read by the endpoint until {@link #noticeSends} completes. */
    private final MemorySegment noticeSent;
    private final RmaHandle noticeSends;
    private final MemorySegment noticeReceived;
    private long exchanges;
    private long gathers;
    /**
     * The timed part's ghost exchanges by phase. PUT: copying out and issuing the puts, the notifications, the notify
     * wait. GET: copying out and notifying, the gets, the notify wait.
     */
    private long putNs;
    private long deliverNs;
    private long notifyWaitNs;
    private long progressNs;
    private long lastProgressNs = System.nanoTime();
    /** Per level, the timed part's exchanges and their gets (PUT: their notify waits). */
    private final long[] levelExchanges;
    private final long[] levelNs;
    /** Per level, the timed part's longest exchange's gets (PUT: notify wait). */
    private final long[] levelMaxNs;

    /** Collective: allocates every level's ghost slots and the space of a level gathered whole. */
    RmaSlabTransport(final Rma rma, final MgClass cls, final GhostMotion motion)
    {
        this.rma = rma;
        this.motion = motion;
        final SlabLevels levels = new SlabLevels(cls, rma.size(), rma.rank());
        final int finest = cls.finestLevel();
        ghostOffsets = new long[finest + 1];
        levelExchanges = new long[finest + 1];
        levelNs = new long[finest + 1];
        levelMaxNs = new long[finest + 1];
        long ghostBytes = 0;
        long largestWholeBytes = 0;
        for (int k = 1; k <= finest; k++)
        {
            final long planeBytes = planeBytes(k);
            if (levels.heldWhole(k))
            {
                largestWholeBytes = Math.max(largestWholeBytes, planeBytes * (1L << k));
            }
            else
            {
                ghostOffsets[k] = ghostBytes;
                ghostBytes += SETS * 2 * planeBytes;
            }
        }
        wholeSetBytes = largestWholeBytes;
        ghosts = rma.alloc(ghostBytes);
        flags = rma.alloc(2 * Long.BYTES);
        wholeLevels = rma.alloc(SETS * wholeSetBytes);
        staging = arena.allocate(Math.max(2 * planeBytes(finest), wholeSetBytes), Double.BYTES);
        putStaging = GhostMotion.PUT == motion ? arena.allocate(SETS * 2 * planeBytes(finest), Double.BYTES) : null;
        putSends = new RmaHandle[] {rma.aggregateHandle(), rma.aggregateHandle()};
        noticeSent = arena.allocate(Long.BYTES, Long.BYTES);
        noticeSends = rma.aggregateHandle();
        noticeReceived = arena.allocate(Long.BYTES, Long.BYTES);
    }

    @Override
    public int rank()
    {
        return rma.rank();
    }

    @Override
    public int size()
    {
        return rma.size();
    }

    @Override
    public void exchangeGhostPlanes(final int level, final Grid grid)
    {
        if (GhostMotion.GET == motion)
        {
            getGhostPlanes(level, grid);
            return;
        }
        final long planeBytes = planeBytes(level);
        final int planeSize = grid.planeSize();
        final int setIndex = (int)(exchanges++ % SETS);
        final long set = ghostOffsets[level] + setIndex * 2 * planeBytes;
        final int lower = (rank() + size() - 1) % size();
        final int upper = (rank() + 1) % size();
        final long exchange = exchanges;
        final long start = System.nanoTime();
        // this set's staging was last sent two exchanges ago: its puts are long done unless a neighbour lags
        putSends[setIndex].await();
        final MemorySegment out = putStaging.asSlice(setIndex * (putStaging.byteSize() / SETS), 2 * planeBytes);
        MemorySegment.copy(grid.values, grid.planeStart(1), out, ValueLayout.JAVA_DOUBLE, 0, planeSize);
        MemorySegment.copy(grid.values, grid.planeStart(grid.planes), out, ValueLayout.JAVA_DOUBLE, planeBytes,
            planeSize);
        rma.nbPut(out.asSlice(0, planeBytes), ghosts, lower, set + UPPER_GHOST * planeBytes, putSends[setIndex]);
        rma.nbPut(out.asSlice(planeBytes, planeBytes), ghosts, upper, set + LOWER_GHOST * planeBytes,
            putSends[setIndex]);
        final long notifyStart = System.nanoTime();
        rma.flags().notify(flags, lower, UPPER_GHOST * Long.BYTES, exchange);
        rma.flags().notify(flags, upper, LOWER_GHOST * Long.BYTES, exchange);
        final long waitStart = System.nanoTime();
        awaitNotified(LOWER_GHOST, exchange, lower);
        awaitNotified(UPPER_GHOST, exchange, upper);
        final long end = System.nanoTime();
        putNs += notifyStart - start;
        deliverNs += waitStart - notifyStart;
        notifyWaitNs += end - waitStart;
        countLevel(level, end - waitStart);
        final MemorySegment mine = ghosts.local();
        MemorySegment.copy(mine, ValueLayout.JAVA_DOUBLE, set + LOWER_GHOST * planeBytes, grid.values,
            grid.planeStart(0), planeSize);
        MemorySegment.copy(mine, ValueLayout.JAVA_DOUBLE, set + UPPER_GHOST * planeBytes, grid.values,
            grid.planeStart(grid.planes + 1), planeSize);
    }

    /** GET: this rank's own slots of a set hold its bottom (lower slot) and top (upper slot) interior planes. */
    private void getGhostPlanes(final int level, final Grid grid)
    {
        final long planeBytes = planeBytes(level);
        final int planeSize = grid.planeSize();
        final long set = ghostOffsets[level] + (exchanges++ % SETS) * 2 * planeBytes;
        final int lower = (rank() + size() - 1) % size();
        final int upper = (rank() + 1) % size();
        final long exchange = exchanges;
        final long start = System.nanoTime();
        final MemorySegment mine = ghosts.local();
        MemorySegment.copy(grid.values, grid.planeStart(1), mine, ValueLayout.JAVA_DOUBLE,
            set + LOWER_GHOST * planeBytes, planeSize);
        MemorySegment.copy(grid.values, grid.planeStart(grid.planes), mine, ValueLayout.JAVA_DOUBLE,
            set + UPPER_GHOST * planeBytes, planeSize);
        VarHandle.releaseFence();
        noticeSends.await();
        noticeSent.set(ValueLayout.JAVA_LONG, 0, exchange);
        notice(exchange, lower, UPPER_GHOST, NOTICE_TO_LOWER_TAG);
        notice(exchange, upper, LOWER_GHOST, NOTICE_TO_UPPER_TAG);
        final long waitStart = System.nanoTime();
        awaitNotice(exchange, lower, LOWER_GHOST, NOTICE_TO_UPPER_TAG);
        final long lowerSeen = System.nanoTime();
        final RmaHandle handle = rma.aggregateHandle();
        rma.nbGet(ghosts, lower, set + UPPER_GHOST * planeBytes, staging.asSlice(0, planeBytes), handle);
        final long upperWaitStart = System.nanoTime();
        awaitNotice(exchange, upper, UPPER_GHOST, NOTICE_TO_LOWER_TAG);
        final long upperSeen = System.nanoTime();
        rma.nbGet(ghosts, upper, set + LOWER_GHOST * planeBytes, staging.asSlice(planeBytes, planeBytes), handle);
        handle.await();
        final long end = System.nanoTime();
        putNs += waitStart - start;
        notifyWaitNs += (lowerSeen - waitStart) + (upperSeen - upperWaitStart);
        final long getNs = (upperWaitStart - lowerSeen) + (end - upperSeen);
        deliverNs += getNs;
        countLevel(level, getNs);
        MemorySegment.copy(staging, ValueLayout.JAVA_DOUBLE, 0, grid.values, grid.planeStart(0), planeSize);
        MemorySegment.copy(staging, ValueLayout.JAVA_DOUBLE, planeBytes, grid.values,
            grid.planeStart(grid.planes + 1), planeSize);
    }

    private void countLevel(final int level, final long ns)
    {
        levelExchanges[level]++;
        levelNs[level] += ns;
        levelMaxNs[level] = Math.max(levelMaxNs[level], ns);
    }

    /**
     * GET: tells the neighbour that this rank's planes of the exchange are in its slots: a store into the neighbour's
     * flag for {@code side} on one host, a message of {@link #noticeSent} with {@code tag} through the driver.
     */
    private void notice(final long exchange, final int neighbour, final int side, final int tag)
    {
        if (!noticedByMessage(neighbour))
        {
            rma.values().putLong(exchange, flags, neighbour, side * Long.BYTES);
            return;
        }
        rma.messages().nbSend(tag, noticeSent, neighbour, noticeSends);
    }

    /** GET: whether notices between this rank and the neighbour are messages (through the driver) or flag stores. */
    private boolean noticedByMessage(final int neighbour)
    {
        return RankTier.DRIVER == rma.tier(neighbour);
    }

    /** GET: waits for the neighbour's notice of the exchange, sent as {@link #notice} says. */
    private void awaitNotice(final long exchange, final int neighbour, final int side, final int tag)
    {
        if (!noticedByMessage(neighbour))
        {
            awaitNotified(side, exchange, neighbour);
            return;
        }
        final long bytes = rma.messages().receive(tag, noticeReceived, neighbour);
        final long announced = noticeReceived.get(ValueLayout.JAVA_LONG, 0);
        if (Long.BYTES != bytes || announced != exchange)
        {
            throw new IllegalStateException("MG exchange " + exchange + ": rank " + neighbour + "'s notice to rank " +
                rank() + " announced exchange " + announced + " in " + bytes + " bytes");
        }
    }

    /**
     * A neighbour pulls this rank's planes while it computes the next operator: through the driver this rank's
     * progress thread serves the pulls on the CPU the operator runs on, so the operator offers it that CPU.
     */
    @Override
    public void progress()
    {
        final long now = System.nanoTime();
        if (now - lastProgressNs < PROGRESS_INTERVAL_NS)
        {
            return;
        }
        rma.progress();
        lastProgressNs = System.nanoTime();
        progressNs += lastProgressNs - now;
    }

    private void awaitNotified(final int side, final long exchange, final int neighbour)
    {
        try
        {
            rma.flags().awaitAtLeast(flags, side * Long.BYTES, exchange, NOTIFY_DEADLINE);
        }
        catch (final RmaException ex)
        {
            throw new IllegalStateException("MG exchange " + exchange + ": rank " + neighbour + " did not notify " +
                "rank " + rank() + " within " + NOTIFY_DEADLINE.toSeconds() + " s", ex);
        }
    }

    @Override
    public void gatherPlanes(final int level, final Grid whole, final int planesPerRank)
    {
        final long shareBytes = planeBytes(level) * planesPerRank;
        final int shareSize = whole.planeSize() * planesPerRank;
        final long set = (gathers++ % SETS) * wholeSetBytes;
        final int firstPlane = 1 + rank() * planesPerRank;
        MemorySegment.copy(whole.values, whole.planeStart(firstPlane), staging, ValueLayout.JAVA_DOUBLE, 0, shareSize);
        final MemorySegment share = staging.asSlice(0, shareBytes);
        for (int r = 0; r < size(); r++)
        {
            if (r != rank())
            {
                rma.nbPut(share, wholeLevels, r, set + rank() * shareBytes, null);
            }
        }
        rma.barrier();
        final MemorySegment mine = wholeLevels.local();
        for (int r = 0; r < size(); r++)
        {
            if (r != rank())
            {
                MemorySegment.copy(mine, ValueLayout.JAVA_DOUBLE, set + r * shareBytes, whole.values,
                    whole.planeStart(1 + r * planesPerRank), shareSize);
            }
        }
    }

    @Override
    public double[] sum(final double[] values)
    {
        final double[] sums = values.clone();
        rma.messages().reduce(ReduceOp.SUM, sums);
        return sums;
    }

    @Override
    public double max(final double value)
    {
        final double[] largest = {value};
        rma.messages().reduce(ReduceOp.MAX, largest);
        return largest[0];
    }

    @Override
    public void barrier()
    {
        rma.barrier();
    }

    @Override
    public void startTimedPart()
    {
        putNs = 0;
        deliverNs = 0;
        notifyWaitNs = 0;
        progressNs = 0;
        Arrays.fill(levelExchanges, 0);
        Arrays.fill(levelNs, 0);
        Arrays.fill(levelMaxNs, 0);
    }

    /**
     * Collective: the timed part's ghost exchanges by phase, slowest rank each: copying out and issuing the puts (GET:
     * copying out and notifying), the notifications (GET: the gets), waiting for the neighbours' notifications, the
     * progress calls between planes.
     */
    double[] exchangePhaseSeconds()
    {
        final double[] seconds = {putNs / 1e9, deliverNs / 1e9, notifyWaitNs / 1e9, progressNs / 1e9};
        rma.messages().reduce(ReduceOp.MAX, seconds);
        return seconds;
    }

    /**
     * Collective: per level, finest last, the timed part's exchanges, the seconds of their gets (PUT: notify waits)
     * and the longest exchange's, slowest rank each, as {exchanges of level 0, seconds of level 0,
     * longest of level 0, exchanges of level 1, ...}.
     */
    double[] levelSeconds()
    {
        final double[] levels = new double[LEVEL_FIELDS * levelNs.length];
        for (int k = 0; k < levelNs.length; k++)
        {
            levels[LEVEL_FIELDS * k] = levelExchanges[k];
            levels[LEVEL_FIELDS * k + 1] = levelNs[k] / 1e9;
            levels[LEVEL_FIELDS * k + 2] = levelMaxNs[k] / 1e9;
        }
        rma.messages().reduce(ReduceOp.MAX, levels);
        return levels;
    }

    /** Collective. */
    @Override
    public void close()
    {
        noticeSends.await();
        putSends[0].await();
        putSends[1].await();
        rma.free(wholeLevels);
        rma.free(flags);
        rma.free(ghosts);
        arena.close();
    }

    static long planeBytes(final int level)
    {
        final long side = (1L << level) + 2;
        return side * side * DOUBLE_BYTES;
    }
}
