package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunJob;
import io.pinmx.rma.example.RmaRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RmaRing with its ranks started by Open MPI's mpirun, meeting through its PMIx server: every rank got the
 * previous rank's number, the fetch-and-add tickets are 0..N-1 once each, and nothing was made under HOME.
 */
class PmixRmaRingTest
{
    private static final int RANKS = 4;
    private static final long RUN_DEADLINE_S = 300;
    private static final Pattern LINE =
        Pattern.compile("rank (\\d+) of (\\d+) received (\\d+), ticket (\\d+), parity sum (\\d+), total (\\d+)");

    @TempDir
    Path dir;

    @Test
    void ticketsAreEachRankOnceOverPmix() throws Exception
    {
        MpirunJob.assumeMpirun();
        final LaunchedJob.Result job = MpirunJob.run(dir, "", RUN_DEADLINE_S, Map.of(), RANKS, RmaRing.class.getName());
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
            assertEquals((long)RANKS * (RANKS - 1) / 2, Long.parseLong(m.group(6)), m.group());
            ticketTaken[ticket] = true;
            reported++;
        }
        assertEquals(RANKS, reported, all);
        assertFalse(Files.exists(dir.resolve("home").resolve(".pinmx")), "a bootstrap file was made under HOME");
    }
}
