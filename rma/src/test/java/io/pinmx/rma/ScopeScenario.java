package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code scopes} ({@code armci_msg_sel}, {@code armci_msg_sel_scope},
 * {@code armci_msg_group_bcast_scope}, {@code armci_msg_group_gop_scope}): select picks the record of the least or
 * greatest value (the lowest rank on a tie, only contributing ranks, none: records unchanged) over the world, a group
 * and each scope; the launcher puts every rank on this host, so NODE takes in every member and MASTERS only the lowest
 * rank, the others keeping their own data. Then the refusals, one rank's or a mismatch, which change nothing.
 */
final class ScopeScenario
{
    private final Rma rma;
    private final RmaMessages messages;

    ScopeScenario(final Rma rma)
    {
        this.rma = rma;
        this.messages = rma.messages();
    }

    void run()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final MemorySegment record = MemorySegment.ofArray(new long[2]);
        setRecord(record, me % 2 == 0 ? 5.0 : 3.0, me);
        int who = messages.select(ReduceOp.MAX, ElementType.DOUBLE, record, true);
        check(0 == who && 5.0 == record.get(ValueLayout.JAVA_DOUBLE, 0) && 0 == record.get(ValueLayout.JAVA_LONG, 8),
            () -> "select MAX picked " + rma.rank() + ": " + Arrays.toString(record.toArray(ValueLayout.JAVA_LONG)));
        setRecord(record, me % 2 == 0 ? 5.0 : 3.0, me);
        who = messages.select(ReduceOp.MIN, ElementType.DOUBLE, record, true);
        final int minWho = who;
        check(1 == who && 3.0 == record.get(ValueLayout.JAVA_DOUBLE, 0) && 1000 == record.get(ValueLayout.JAVA_LONG, 8),
            () -> "select MIN picked " + minWho);
        // Only ranks 2 and up contribute: with 2 ranks none does and the records stay.
        final MemorySegment ints = MemorySegment.ofArray(new int[] {me, me * 3});
        who = messages.select(ReduceOp.MAX, ElementType.INT, ints, me >= 2);
        final int lastWho = who;
        check(n > 2 ? n - 1 == who && n - 1 == ints.getAtIndex(ValueLayout.JAVA_INT, 0) &&
                3 * (n - 1) == ints.getAtIndex(ValueLayout.JAVA_INT, 1) :
                RmaGroup.NOT_A_MEMBER == who && me == ints.getAtIndex(ValueLayout.JAVA_INT, 0),
            () -> "select among contributors picked " + lastWho + ": " + Arrays.toString(ints.toArray(ValueLayout.JAVA_INT)));

        final RmaGroup parity = rma.groups().split(rma.worldGroup(), me % 2, me);
        final MemorySegment longs = MemorySegment.ofArray(new long[] {100 - me, me});
        who = messages.select(ArmciScope.ALL, parity, ReduceOp.MIN, ElementType.LONG, longs, true);
        final int highest = parity.worldRank(parity.size() - 1);
        final int parityWho = who;
        check(highest == who && highest == longs.getAtIndex(ValueLayout.JAVA_LONG, 1),
            () -> "select over the parity group picked " + parityWho + ", want " + highest);

        longs.setAtIndex(ValueLayout.JAVA_LONG, 0, me);
        who = messages.select(ArmciScope.NODE, rma.worldGroup(), ReduceOp.MAX, ElementType.LONG, longs, true);
        check(n - 1 == who, () -> "NODE scope on one host does not take in every rank");
        longs.setAtIndex(ValueLayout.JAVA_LONG, 0, me);
        longs.setAtIndex(ValueLayout.JAVA_LONG, 1, -me);
        who = messages.select(ArmciScope.MASTERS, rma.worldGroup(), ReduceOp.MIN, ElementType.LONG, longs, true);
        final int masterWho = who;
        check(0 == me ? 0 == who : RmaGroup.NOT_A_MEMBER == who && -me == longs.getAtIndex(ValueLayout.JAVA_LONG, 1),
            () -> "MASTERS scope on one host: rank " + me + " got " + masterWho);

        final byte[] mine = {(byte)me, 42};
        final byte[] node = messages.broadcast(ArmciScope.NODE, rma.worldGroup(), n - 1, mine);
        check(Arrays.equals(new byte[] {(byte)(n - 1), 42}, node), () -> "NODE broadcast: " + Arrays.toString(node));
        final byte[] masters = messages.broadcast(ArmciScope.MASTERS, 0, mine);
        check(Arrays.equals(mine, masters), () -> "MASTERS broadcast on one host: " + Arrays.toString(masters));
        final int lowest = parity.worldRank(0);
        final byte[] group = messages.broadcast(ArmciScope.ALL, parity, lowest, mine);
        check(lowest == group[0], () -> "scoped broadcast over the parity group: " + Arrays.toString(group));

        final MemorySegment sum = MemorySegment.ofArray(new int[] {me + 1});
        messages.reduce(ArmciScope.NODE, ReduceOp.SUM, ElementType.INT, sum);
        check(n * (n + 1) / 2 == sum.getAtIndex(ValueLayout.JAVA_INT, 0), () -> "NODE sum " + sum.getAtIndex(ValueLayout.JAVA_INT, 0));
        sum.setAtIndex(ValueLayout.JAVA_INT, 0, me + 1);
        messages.reduce(ArmciScope.MASTERS, rma.worldGroup(), ReduceOp.SUM, ElementType.INT, sum);
        check(me + 1 == sum.getAtIndex(ValueLayout.JAVA_INT, 0), () -> "MASTERS sum on one host changed rank " + me);
        refusals(record);
        rma.groups().free(parity);
    }

    private void refusals(final MemorySegment record)
    {
        final int me = rma.rank();
        final int n = rma.size();
        final int last = n - 1;
        setRecord(record, me, me);
        final long[] kept = record.toArray(ValueLayout.JAVA_LONG);
        if (last == me)
        {
            expect(IllegalArgumentException.class, "other than MIN or MAX",
                () -> messages.select(ReduceOp.SUM, ElementType.DOUBLE, record, true));
        }
        else
        {
            expect(RmaException.class, "rank " + last + " gave an operation other than MIN or MAX",
                () -> messages.select(ReduceOp.MAX, ElementType.DOUBLE, record, true));
        }
        if (0 == me)
        {
            expect(IllegalArgumentException.class, "shorter than its value",
                () -> messages.select(ReduceOp.MAX, ElementType.DOUBLE, MemorySegment.ofArray(new byte[4]), true));
        }
        else
        {
            expect(RmaException.class, "rank 0 gave a record shorter than its value",
                () -> messages.select(ReduceOp.MAX, ElementType.DOUBLE, record, true));
        }
        final MemorySegment longer = MemorySegment.ofArray(new long[3]);
        expect(RmaException.class, "collective mismatch in select",
            () -> messages.select(ReduceOp.MIN, ElementType.DOUBLE, 0 == me ? longer : record, true));
        expect(IllegalArgumentException.class, "element type select has not",
            () -> messages.select(ReduceOp.MIN, ElementType.COMPLEX_DOUBLE, record, true));
        check(Arrays.equals(kept, record.toArray(ValueLayout.JAVA_LONG)), () -> "a refused select changed the record");

        expect(IllegalArgumentException.class, "root " + n + ", not one of the ranks",
            () -> messages.broadcast(ArmciScope.NODE, n, new byte[1]));
        expect(RmaException.class, "collective mismatch in scoped broadcast",
            () -> messages.broadcast(ArmciScope.ALL, 0 == me ? 0 : 1, new byte[1]));
        if (last == me)
        {
            expect(IllegalArgumentException.class, "null bytes as the root",
                () -> messages.broadcast(ArmciScope.ALL, last, null));
        }
        else
        {
            expect(RmaException.class, "rank " + last + " refused its part",
                () -> messages.broadcast(ArmciScope.ALL, last, new byte[1]));
        }
        expect(IllegalArgumentException.class, "the scope is null", () -> messages.broadcast((ArmciScope)null, 0, new byte[1]));
        final byte[] after = messages.broadcast(ArmciScope.ALL, 0, new byte[] {(byte)me});
        check(0 == after[0], () -> "a broadcast after refused ones: " + after[0]);
    }

    private static void setRecord(final MemorySegment record, final double value, final int rank)
    {
        record.set(ValueLayout.JAVA_DOUBLE, 0, value);
        record.set(ValueLayout.JAVA_LONG, 8, rank * 1000L);
    }
}
