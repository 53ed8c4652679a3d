package io.pinmx.regioncache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A declarer that behaves like the driver's region table (lowest free id first, an id is
 * reused only after its undeclare, optionally a table of limited size that refuses a declaration
 * with {@link RegionTableFullException} when full) and records every call, so tests can check that each
 * declared id is undeclared exactly once and never while a lease could still see it.
 */
final class RecordingDeclarer implements RegionDeclarer
{
    record Declared(int regionId, long[] addresses, long[] lengths)
    {
        long bytes()
        {
            return Arrays.stream(lengths).sum();
        }
    }

    private final BitSet usedIds = new BitSet();
    private final Map<Integer, Declared> live = new HashMap<>();
    private final List<Declared> declared = new ArrayList<>();
    private final List<Integer> undeclared = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private RuntimeException nextDeclareFailure;
    private RuntimeException nextUndeclareFailure;
    private int tableSize = Integer.MAX_VALUE;
    private int refusedFull;

    public synchronized int declare(final long[] addresses, final long[] lengths, final int count)
    {
        if (null != nextDeclareFailure)
        {
            final RuntimeException failure = nextDeclareFailure;
            nextDeclareFailure = null;
            throw failure;
        }
        if (live.size() >= tableSize)
        {
            refusedFull++;
            throw new RegionTableFullException("all " + tableSize + " regions of the table are declared", null);
        }
        final int regionId = usedIds.nextClearBit(0);
        usedIds.set(regionId);
        final Declared region = new Declared(
            regionId, Arrays.copyOf(addresses, count), Arrays.copyOf(lengths, count));
        live.put(regionId, region);
        declared.add(region);
        return regionId;
    }

    public synchronized void undeclare(final int regionId)
    {
        undeclared.add(regionId);
        if (null == live.remove(regionId))
        {
            violations.add("undeclare of region " + regionId + " which is not declared");
        }
        usedIds.clear(regionId);
        if (null != nextUndeclareFailure)
        {
            final RuntimeException failure = nextUndeclareFailure;
            nextUndeclareFailure = null;
            throw failure;
        }
    }

    /** The table holds at most {@code regions} regions from now on, like a driver's fixed table. */
    synchronized void limitTable(final int regions)
    {
        tableSize = regions;
    }

    synchronized int refusedFull()
    {
        return refusedFull;
    }

    synchronized void failNextDeclare(final RuntimeException failure)
    {
        nextDeclareFailure = failure;
    }

    synchronized void failNextUndeclare(final RuntimeException failure)
    {
        nextUndeclareFailure = failure;
    }

    synchronized int declareCount()
    {
        return declared.size();
    }

    synchronized List<Integer> undeclaredIds()
    {
        return List.copyOf(undeclared);
    }

    synchronized boolean isLive(final int regionId)
    {
        return live.containsKey(regionId);
    }

    synchronized Declared live(final int regionId)
    {
        return live.get(regionId);
    }

    synchronized int liveCount()
    {
        return live.size();
    }

    synchronized long liveBytes()
    {
        return live.values().stream().mapToLong(Declared::bytes).sum();
    }

    synchronized List<String> violations()
    {
        return List.copyOf(violations);
    }
}
