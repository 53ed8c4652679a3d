package io.pinmx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/pinmx-run without PINMX_CLASSPATH: it builds bench-imb only when sources changed since the last build
 * (scripts/lib.sh's pinmx_classpath), concurrent launchers wait for one build, and a usage error comes before
 * any build. These run the real Maven build of this tree, once: the run after the concurrent ones is the one with
 * unchanged sources.
 */
class LauncherBuildTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path LAUNCHER = ROOT.resolve("bin/pinmx-run");
    private static final Path STAMP = ROOT.resolve("target/pinmx-classpath/bench-imb");
    private static final long DEADLINE_S = 600;
    private static final String BUILDING = "pinmx: building bench-imb";

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err)
    {
    }

    private Process start(final String name, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        return pb.start();
    }

    private Outcome finish(final Process p, final String name) throws Exception
    {
        if (!p.waitFor(DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within " + DEADLINE_S + " s");
        }
        return new Outcome(p.exitValue(), Files.readString(dir.resolve(name + ".out")),
            Files.readString(dir.resolve(name + ".err")));
    }

    /** A benchmark of the built jar that stops at its argument check: proof the JVM ran on the built classpath. */
    private String[] program()
    {
        return new String[]{ "-np", "2", "PingPong", "--bogus" };
    }

    private static void assertRan(final Outcome o)
    {
        assertEquals(2, o.exit(), o.err());
        assertTrue(o.err().contains("[rank 0] PingPong: unknown argument '--bogus' (PingPong --help lists the arguments)\n"),
            o.err());
        assertFalse(o.err().contains("[INFO]") || o.err().contains("\u001b["), "Maven output leaked: " + o.err());
    }

    @Test
    void concurrentLaunchersBuildOnceTheOthersWaitForItAndALaterRunDoesNotBuild() throws Exception
    {
        Files.deleteIfExists(STAMP);
        final Process a = start("a", program());
        final Process b = start("b", program());
        final Outcome oa = finish(a, "a");
        final Outcome ob = finish(b, "b");
        assertRan(oa);
        assertRan(ob);
        final long builds = List.of(oa, ob).stream().filter(o -> o.err().contains(BUILDING)).count();
        assertEquals(1, builds, "a: " + oa.err() + "\nb: " + ob.err());
        assertTrue(Files.isRegularFile(STAMP));

        // The sources are unchanged since that build.
        final Outcome later = finish(start("later", program()), "later");
        assertRan(later);
        assertFalse(later.err().contains(BUILDING), later.err());
    }

    @Test
    void aUsageErrorComesBeforeAnyBuild() throws Exception
    {
        Files.deleteIfExists(STAMP);
        final Outcome o = finish(start("usage", "-np", "x", "PingPong"), "usage");
        assertEquals(2, o.exit(), o.err());
        assertEquals("pinmx-run: -np 'x': expected a positive number of processes (pinmx-run --help lists the options)\n",
            o.err());
        assertFalse(o.err().contains(BUILDING), o.err());
        assertFalse(Files.exists(STAMP), "no build ran");
    }
}
