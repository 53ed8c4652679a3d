package io.pinmx.rma;

import java.lang.foreign.ValueLayout;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code defaultgroup} ({@code ARMCI_Group_set_default}, {@code _get_default}): with
 * its parity group as the default, each rank allocates over that group only and takes barriers with it alone (the
 * even ranks more of them than the odd ones, which a world barrier could not match); then the world is the default
 * again. Refused: a null group, one this rank is not in, a freed one; allocation and barrier over a default freed since.
 */
final class DefaultGroupScenario
{
    private final Rma rma;

    DefaultGroupScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        final RmaGroups groups = rma.groups();
        final RmaGroup world = rma.worldGroup();
        final int me = rma.rank();
        check(world == groups.defaultGroup(), () -> "the default group is not the world at first");
        final RmaGroup parity = groups.split(world, me % 2, me);
        groups.setDefault(parity);
        check(parity == groups.defaultGroup(), () -> "the default group is not the one set");
        final RmaAllocation a = rma.alloc(64);
        check(parity == a.group(), () -> "alloc(bytes) took group " + a.group() + ", not the default " + parity);
        final int other = 0 == me % 2 ? 1 : 0;
        expect(IllegalArgumentException.class, "rank " + other + " is not in group " + parity.id(),
            () -> rma.values().putLong(1, a, other, 0));
        final int barriers = 0 == me % 2 ? 3 : 1;
        final int nextInGroup = parity.worldRank((parity.rank() + 1) % parity.size());
        for (int b = 1; b <= barriers; b++)
        {
            rma.values().putLong(me * 100L + b, a, nextInGroup, 0);
            rma.barrier();
            final int prevInGroup = parity.worldRank((parity.rank() + parity.size() - 1) % parity.size());
            final long want = prevInGroup * 100L + b;
            final int round = b;
            check(want == a.local().get(ValueLayout.JAVA_LONG, 0), () -> "barrier " + round + " of the default group: " +
                a.local().get(ValueLayout.JAVA_LONG, 0) + ", want " + want);
            rma.barrier();
        }
        rma.free(a);
        groups.setDefault(world);
        rma.barrier();

        expect(IllegalArgumentException.class, "default group: the group is null", () -> groups.setDefault(null));
        final RmaGroup onlyZero = groups.create(world, new int[] {0});
        if (0 != me)
        {
            expect(IllegalArgumentException.class, "rank " + me + " is not in group " + onlyZero.id(),
                () -> groups.setDefault(onlyZero));
        }
        else
        {
            groups.setDefault(onlyZero);
        }
        groups.free(onlyZero);
        if (0 == me)
        {
            expect(IllegalStateException.class, "group " + onlyZero.id() + " was freed", () -> rma.alloc(8));
            expect(IllegalStateException.class, "group " + onlyZero.id() + " was freed", rma::barrier);
            groups.setDefault(world);
        }
        expect(IllegalStateException.class, "group " + onlyZero.id() + " was freed", () -> groups.setDefault(onlyZero));
        groups.free(parity);
        expect(IllegalStateException.class, "was freed", () -> groups.setDefault(parity));
        check(world == groups.defaultGroup(), () -> "a refused default changed it to " + groups.defaultGroup());
        rma.barrier();
    }
}
