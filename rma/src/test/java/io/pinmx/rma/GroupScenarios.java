package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.IntStream;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * The {@code groups} scenario of {@link ArmciInterfaceScenarios}: groups made from a list of world and of group
 * ranks and by splits of odd sizes, each used for allocation, put/get/accumulate/fetch-and-add among its members,
 * mutexes, barrier, reductions and broadcast while the ranks outside it do something else; then the refusals.
 */
final class GroupScenarios
{
    private final Rma rma;
    private final int n;
    private final int me;

    GroupScenarios(final Rma rma)
    {
        this.rma = rma;
        this.n = rma.size();
        this.me = rma.rank();
    }

    void run()
    {
        final RmaGroup world = rma.worldGroup();
        check(world.size() == n && world.rank() == me && 0 == world.id() && world.worldRank(n - 1) == n - 1,
            () -> "world group " + world);
        expect(IllegalArgumentException.class, "world group is never freed", () -> rma.groups().free(world));
        // Every rank but 0, in reverse world order: rank 0 is outside.
        final int[] list = new int[n - 1];
        for (int i = 0; i < list.length; i++)
        {
            list[i] = n - 1 - i;
        }
        final RmaGroup upper = rma.groups().create(world, list);
        check(upper.size() == n - 1 && Arrays.equals(list, upper.worldRanks()) && upper.id() > 0,
            () -> "group of " + Arrays.toString(list) + ": " + upper);
        check(0 == me ? RmaGroup.NOT_A_MEMBER == upper.rank() : upper.rank() == n - 1 - me &&
            upper.worldRank(upper.rank()) == me && upper.groupRank(me) == upper.rank(), () -> "ranks in " + upper);
        if (0 == me)
        {
            expect(IllegalArgumentException.class, "rank 0 is not in group " + upper.id(), () -> rma.alloc(upper, 64));
            expect(IllegalArgumentException.class, "rank 0 is not in group", () -> rma.barrier(upper));
            expect(IllegalArgumentException.class, "rank 0 is not in group",
                () -> rma.messages().reduce(upper, ReduceOp.SUM, new long[1]));
        }
        else
        {
            useGroup(upper);
        }
        rma.barrier();
        splits(world);
        refusals(world);
        if (0 != me)
        {
            rma.groups().free(upper);
        }
        else
        {
            rma.groups().free(upper);
            check(upper.isFreed(), () -> "a non-member's free leaves its handle live");
        }
        expect(IllegalStateException.class, "group " + upper.id() + " was freed", () -> rma.groups().free(upper));
        expect(IllegalStateException.class, "was freed", () -> rma.alloc(upper, 8));
        expect(IllegalStateException.class, "was freed", () -> rma.groups().create(upper, new int[] {0}));
    }

    /**
     * Members only: a group allocation with member-dependent sizes, a ring of puts in group order, accumulates and
     * fetch-and-adds onto group rank 0, mutex-guarded counters on every member, reductions and a broadcast.
     */
    private void useGroup(final RmaGroup g)
    {
        final int size = g.size();
        final int gr = g.rank();
        final RmaAllocation a = rma.alloc(g, 64L * (gr + 2));
        check(a.group() == g, () -> "allocation's group");
        for (int i = 0; i < size; i++)
        {
            final int w = g.worldRank(i);
            check(a.size(w) == 64L * (i + 2), () -> "slice size of rank " + w + ": " + a.size(w));
        }
        for (int r = 0; r < n; r++)
        {
            if (!g.contains(r))
            {
                final int outside = r;
                final String named = "rank " + outside + " is not in group " + g.id();
                final MemorySegment eight = MemorySegment.ofArray(new long[1]);
                expect(IllegalArgumentException.class, named, () -> rma.put(eight, a, outside, 0));
                expect(IllegalArgumentException.class, named, () -> rma.get(a, outside, 0, eight));
                expect(IllegalArgumentException.class, named, () -> rma.atomics().fetchAndAdd(a, outside, 0, 1));
                expect(IllegalArgumentException.class, named, () -> rma.values().nbPutLong(1, a, outside, 0, null));
                expect(IllegalArgumentException.class, named, () -> a.size(outside));
            }
        }
        final int next = g.worldRank((gr + 1) % size);
        rma.values().putLong(1000 + me, a, next, 8);
        final int root = g.worldRank(0);
        rma.acc(AccumulateScale.ofLong(2), MemorySegment.ofArray(new long[] {me + 1L}), a, root, 16);
        final int ticket = rma.atomics().fetchAndAdd(a, root, 24, 1);
        rma.barrier(g);
        final int prev = g.worldRank((gr + size - 1) % size);
        check(1000 + prev == a.local().get(ValueLayout.JAVA_LONG, 8), () -> "ring put from rank " + prev);
        final long[] tickets = {ticket};
        rma.messages().reduce(g, ReduceOp.MAX, tickets);
        check(size - 1 == tickets[0], () -> "highest ticket " + tickets[0]);
        long memberSum = 0;
        for (final int w : g.worldRanks())
        {
            memberSum += w + 1;
        }
        final long wantAcc = 2 * memberSum;
        check(wantAcc == rma.values().getLong(a, root, 16), () -> "group accumulate " + rma.values().getLong(a, root, 16));
        final double[] abs = {me % 2 == 0 ? -me - 0.5 : me + 0.5};
        rma.messages().reduce(g, ReduceOp.ABSMIN, abs);
        final int lowest = Arrays.stream(g.worldRanks()).min().orElseThrow();
        check(lowest + 0.5 == abs[0], () -> "group absmin " + abs[0]);
        final byte[] said = rma.messages().broadcast(g, size - 1, ("from " + me).getBytes(StandardCharsets.US_ASCII));
        check(("from " + g.worldRank(size - 1)).equals(new String(said, StandardCharsets.US_ASCII)),
            () -> "group broadcast " + new String(said, StandardCharsets.US_ASCII));
        // Mutexes on the group: every member hosts one; each takes every member's in turn around a counter.
        final RmaMutexes m = rma.locks().createMutexes(g, 1);
        for (final int host : g.worldRanks())
        {
            m.lock(0, host);
            final long seen = rma.values().getLong(a, host, 32);
            rma.values().putLong(seen + 1, a, host, 32);
            m.unlock(0, host);
        }
        for (int r = 0; r < n; r++)
        {
            if (!g.contains(r))
            {
                final int outside = r;
                expect(IllegalArgumentException.class, "rank " + outside + " is not in group", () -> m.lock(0, outside));
            }
        }
        rma.barrier(g);
        check(size == a.local().get(ValueLayout.JAVA_LONG, 32), () -> "mutex counter " +
            a.local().get(ValueLayout.JAVA_LONG, 32));
        expect(IllegalStateException.class, "still has allocation", () -> rma.groups().free(g));
        rma.locks().destroyMutexes(m);
        rma.free(a);
    }

    /**
     * The world split by parity of rank, ordered by descending rank (sizes differ when n is odd), with rank n - 1
     * outside when n > 2; a child of each half made from group ranks; both halves allocate and reduce at once.
     */
    private void splits(final RmaGroup world)
    {
        final boolean outside = n > 2 && me == n - 1;
        final RmaGroup half = rma.groups().split(world, outside ? -1 : me % 2, -me);
        if (outside)
        {
            check(0 == half.size() && RmaGroup.NOT_A_MEMBER == half.rank(), () -> "negative colour gave " + half);
            expect(IllegalArgumentException.class, "is not in group", () -> rma.barrier(half));
            return;
        }
        final int members = (int)IntStream.range(0, splitting(n)).filter(r -> r % 2 == me % 2).count();
        check(half.size() == members && half.worldRank(0) == highest(me % 2), () -> "half " + half);
        for (int i = 1; i < half.size(); i++)
        {
            final int at = i;
            check(half.worldRank(i) < half.worldRank(i - 1), () -> "half not ordered by key at " + at + ": " + half);
        }
        final long[] sum = {me};
        rma.messages().reduce(half, ReduceOp.SUM, sum);
        final long want = IntStream.range(0, splitting(n)).filter(r -> r % 2 == me % 2).sum();
        check(want == sum[0], () -> "sum over " + half + ": " + sum[0]);
        final RmaAllocation a = rma.alloc(half, 16);
        rma.values().putLong(me, a, half.worldRank(0), 0);
        final RmaGroup child = rma.groups().create(half, new int[] {half.size() - 1});
        check(half.worldRank(half.size() - 1) == me ? 0 == child.rank() : RmaGroup.NOT_A_MEMBER == child.rank(),
            () -> "child " + child + " of " + half);
        if (0 == child.rank())
        {
            final int[] alone = {7};
            rma.messages().reduce(child, ReduceOp.PROD, alone);
            check(7 == alone[0], () -> "one-member reduction " + alone[0]);
            rma.groups().free(child);
        }
        rma.barrier(half);
        if (0 == half.rank())
        {
            check(a.local().get(ValueLayout.JAVA_LONG, 0) % 2 == me % 2, () -> "put within half");
        }
        rma.free(a);
        rma.groups().free(half);
        if (RmaGroup.NOT_A_MEMBER == child.rank())
        {
            rma.groups().free(child);
        }
    }

    /** Ranks with a colour in the split: every rank, less the last when n > 2. */
    private static int splitting(final int n)
    {
        return n > 2 ? n - 1 : n;
    }

    private int highest(final int parity)
    {
        int h = -1;
        for (int r = 0; r < splitting(n); r++)
        {
            h = r % 2 == parity ? r : h;
        }
        return h;
    }

    /** A bad list on one rank, lists that differ, a mismatched collective over a group: each named, nothing made. */
    private void refusals(final RmaGroup world)
    {
        final int last = n - 1;
        if (last == me)
        {
            expect(IllegalArgumentException.class, "rank " + n + " is not a rank of parent group 0",
                () -> rma.groups().create(world, new int[] {0, n}));
        }
        else
        {
            expect(RmaException.class, "rank " + last + " refused its list", () -> rma.groups().create(world, new int[] {0}));
        }
        expect(IllegalArgumentException.class, "listed twice", () -> rma.groups().create(world, new int[] {0, 0}));
        expect(RmaException.class, "collective mismatch in group creation",
            () -> rma.groups().create(world, 0 == me ? new int[] {0} : new int[] {0, 1}));
        final RmaGroup all = rma.groups().create(world, world.worldRanks());
        if (0 == me)
        {
            expect(RmaException.class, "collective mismatch", () -> rma.alloc(all, 64));
        }
        else
        {
            expect(RmaException.class, "collective mismatch", () -> rma.messages().reduce(all, ReduceOp.SUM, new long[1]));
        }
        // Still in step: an allocation over the group works after the refusals.
        final RmaAllocation a = rma.alloc(all, 8);
        rma.values().putLong(me + 1, a, (me + 1) % n, 0);
        rma.barrier(all);
        check((me + n - 1) % n + 1 == a.local().get(ValueLayout.JAVA_LONG, 0), () -> "allocation after refusals");
        rma.free(a);
        rma.groups().free(all);
    }
}
