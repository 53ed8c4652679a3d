package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunAcrossNamespaces;
import io.pinmx.job.VethNamespaces;
import io.pinmx.rma.example.RmaRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RmaRing with one rank in each namespace of a {@link VethNamespaces} pair, started by Open MPI's mpirun and
 * meeting through its PMIx servers ({@link MpirunAcrossNamespaces}, a HOME per "host"): each rank got the other's
 * number, the fetch-and-add tickets are 0 and 1 once each, and the one-sided traffic crossed the veth on the
 * driver tier (quick calibration, as a fresh HOME has no cost model; it dominates the test's time).
 */
class PmixTwoNamespaceRmaRingTest
{
    private static final int RANKS = 2;
    private static final long RUN_DEADLINE_S = 180;
    private static final long DRIVER_TIER_MIN_BYTES = 1L << 20;
    private static final Pattern LINE =
        Pattern.compile("rank (\\d+) of (\\d+) received (\\d+), ticket (\\d+), parity sum (\\d+), total (\\d+)");

    @TempDir
    Path dir;

    @Test
    void ticketsAreEachRankOnceAcrossTheVeth() throws Exception
    {
        MpirunAcrossNamespaces.assumeReady();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final MpirunAcrossNamespaces mpirun = MpirunAcrossNamespaces.over(hosts, dir);
            final long before = hosts.bytes(1);
            final LaunchedJob.Result job = mpirun.run(RUN_DEADLINE_S,
                Map.of(RmaOptions.CALIBRATION_VARIABLE, "quick"), List.of(), RmaRing.class.getName());
            final String all = job.out() + job.err();

            assertEquals(0, job.exitStatus(), all);
            final boolean[] ticketTaken = new boolean[RANKS];
            int reported = 0;
            final Matcher m = LINE.matcher(all);
            while (m.find())
            {
                final int rank = Integer.parseInt(m.group(1));
                final int ticket = Integer.parseInt(m.group(4));
                assertEquals(RANKS, Integer.parseInt(m.group(2)), m.group());
                assertEquals((rank + RANKS - 1) % RANKS, Integer.parseInt(m.group(3)), m.group());
                assertTrue(ticket < RANKS && !ticketTaken[ticket], "ticket " + ticket + " out of range or taken twice: " + all);
                ticketTaken[ticket] = true;
                reported++;
            }
            assertEquals(RANKS, reported, all);
            // Each "host" has its own shared-memory directory, so each rank reaches the other through the driver
            // tier, calibrates it and runs the ring over it: that moves far more than the launcher's own control
            // traffic, which is all that would cross if the ranks had mapped each other's memory.
            hosts.assertCrossed(1, before, DRIVER_TIER_MIN_BYTES,
                "driver-tier bytes at least (RmaRing and its calibration)");
            mpirun.assertNoBootstrapFile();
        }
    }
}
