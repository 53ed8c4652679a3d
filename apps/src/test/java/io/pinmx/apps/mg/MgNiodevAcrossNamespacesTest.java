package io.pinmx.apps.mg;

import io.pinmx.job.VethNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MG's message-passing version on MPJ's niodev with its two ranks in two network namespaces joined by a veth pair,
 * as apps/run.sh's veth setting runs it: NiodevJob runs in the first namespace with its port server on that side's
 * address and starts rank 1 through the prefix {@code ip netns exec} of the second. Needs root and iproute2 (skipped
 * without).
 */
class MgNiodevAcrossNamespacesTest
{
    private static final long RUN_DEADLINE_S = 600;
    /** Class S's finest ghost plane: 34 x 34 doubles. */
    private static final long FINEST_PLANE_BYTES = 34L * 34 * Double.BYTES;
    /** At least: 4 iterations, 2 exchanges of the finest level each, a plane each way. */
    private static final long LEAST_GHOST_BYTES = 4 * 2 * 2 * FINEST_PLANE_BYTES;

    @TempDir
    Path dir;

    @Test
    void ranksInTwoNamespacesVerifyAcrossTheVeth() throws Exception
    {
        try (VethNamespaces pair = VethNamespaces.create())
        {
            final long bytesBefore = pair.bytes(0);
            final List<String> job = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            job.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--")).toList());
            job.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.pinmx.mpj.niodev.NiodevJob",
                "--port-server", pair.address(0), "--rank-prefix", "1", String.join(" ", pair.inside(1, List.of())),
                "-np", "2", MgMessagePassing.class.getName(), "S"));
            final Path out = dir.resolve("out");
            final Path err = dir.resolve("err");
            final Process p = new ProcessBuilder(pair.inside(0, job)).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
            if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
            }
            final String report = Files.readString(out) + Files.readString(err);
            assertEquals(0, p.waitFor(), report);
            assertTrue(report.contains(" Verification    =               SUCCESSFUL"), report);
            assertTrue(report.contains(" Version         =               MPJ niodev"), report);
            assertTrue(report.contains(" Total processes =                        2"), report);
            pair.assertCrossed(0, bytesBefore, LEAST_GHOST_BYTES, "bytes of MG S's finest ghost planes");
        }
    }
}
