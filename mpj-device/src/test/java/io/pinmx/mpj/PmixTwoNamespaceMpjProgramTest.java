package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunAcrossNamespaces;
import io.pinmx.job.VethNamespaces;
import io.pinmx.mpj.programs.Collectives;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An MPJ Express program on the device with one rank in each namespace of a {@link VethNamespaces} pair, started
 * by Open MPI's mpirun (bin/pinmx-run --mpj per rank) and meeting through its PMIx servers
 * ({@link MpirunAcrossNamespaces}, a HOME per "host"): both ranks print their "OK" line, nothing is made under
 * either HOME, and the device's traffic crossed the veth.
 */
class PmixTwoNamespaceMpjProgramTest
{
    private static final int RANKS = 2;
    private static final long RUN_DEADLINE_S = 300;

    @TempDir
    Path dir;

    @Test
    void collectivesRunAcrossTheVeth() throws Exception
    {
        MpirunAcrossNamespaces.assumeReady();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final MpirunAcrossNamespaces mpirun = MpirunAcrossNamespaces.over(hosts, dir);
            final long before = hosts.bytes(1);
            final LaunchedJob.Result job =
                mpirun.run(RUN_DEADLINE_S, Map.of(), List.of(), "--mpj", Collectives.class.getName());

            assertEquals(0, job.exitStatus(), job.out() + job.err());
            assertEquals(RANKS, job.out().lines().filter("Collectives OK"::equals).count(), job.out() + job.err());
            mpirun.assertNoBootstrapFile();
            assertTrue(hosts.bytes(1) > before, "nothing crossed the veth pair");
        }
    }
}
