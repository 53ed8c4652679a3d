package io.pinmx.rma;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code samenode} ({@code ARMCI_Same_node}): the launcher starts every rank on this
 * host, so every rank is on this rank's node, whichever tier reaches it (the driver, with the shared-memory tier
 * off); a rank outside the job is refused, naming it.
 */
final class SameNodeScenario
{
    private final Rma rma;

    SameNodeScenario(final Rma rma)
    {
        this.rma = rma;
    }

    void run()
    {
        for (int r = 0; r < rma.size(); r++)
        {
            final int rank = r;
            check(rma.sameNode(rank), () -> "rank " + rank + " (" + rma.tier(rank) + ") is not on rank " + rma.rank() +
                "'s node, yet the launcher started every rank on this host");
        }
        expect(IllegalArgumentException.class, "rank -1 is not a rank of this job", () -> rma.sameNode(-1));
        expect(IllegalArgumentException.class, "rank " + rma.size() + " is not a rank of this job",
            () -> rma.sameNode(rma.size()));
    }
}
