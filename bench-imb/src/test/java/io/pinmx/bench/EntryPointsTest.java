package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every command-line entry point as a user meets it: bin/pinmx-run, bin/pinmx-admin and each program pinmx-run
 * starts answer --help (usage on stdout, exit 0), --version (one line on stdout, exit 0) and a wrong argument (one
 * line on stderr naming it, exit 2, nothing on stdout); bad PINMX_* values and rank counts a program cannot run with
 * are refused before any JVM starts.
 */
class EntryPointsTest
{
    private static final Path RUN = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final Path ADMIN = Path.of("..", "bin", "pinmx-admin").toAbsolutePath().normalize();
    private static final long DEADLINE_S = 120;
    /** A class path no JVM can start from: a refusal that must come before any JVM shows that none started. */
    private static final String NO_CLASSPATH = "/nonexistent/pinmx-classpath";
    private static final String VERSION_LINE = "pinmx \\S+, ABI [0-9]+, pinmx\\.ko .*";

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err)
    {
        List<String> errLines()
        {
            return err.lines().toList();
        }
    }

    private Outcome run(final Map<String, String> env, final List<String> command) throws IOException, InterruptedException
    {
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") ||
            k.startsWith("PINMX_") || k.startsWith("OMPI_") || k.startsWith("JAVA_TOOL_OPTIONS"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().putAll(env);
        final Process p = pb.start();
        if (!p.waitFor(DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + DEADLINE_S + " s");
        }
        return new Outcome(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }

    private Outcome pinmxRun(final Map<String, String> env, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(RUN.toString()));
        command.addAll(List.of(args));
        return run(env, command);
    }

    private Outcome pinmxRun(final String... args) throws Exception
    {
        return pinmxRun(Map.of(), args);
    }

    private static void assertHelp(final Outcome o, final String... mentions)
    {
        assertEquals(0, o.exit(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().startsWith("usage: "), o.out());
        for (final String m : mentions)
        {
            assertTrue(o.out().contains(m), m + " not in:\n" + o.out());
        }
    }

    private static void assertVersion(final Outcome o)
    {
        assertEquals(0, o.exit(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().matches(VERSION_LINE + "\n"), o.out());
    }

    /** Exit 2, nothing on stdout, one line on stderr that holds every one of {@code mentions}. */
    private static void assertRefused(final Outcome o, final String... mentions)
    {
        assertEquals(2, o.exit(), o.err());
        assertEquals("", o.out());
        assertEquals(1, o.errLines().size(), o.err());
        for (final String m : mentions)
        {
            assertTrue(o.err().contains(m), m + " not in: " + o.err());
        }
        assertTrue(!o.err().contains("Exception") && !o.err().contains("\tat "), o.err());
    }

    @Test
    void theLauncherAnswersHelpVersionAndAWrongOption() throws Exception
    {
        assertHelp(pinmxRun("--help"), "-np N", "--driver", "PingPong", "osu_put_latency", "PINMX_DRIVER",
            "PINMX_PEER_TIMEOUT_MS", "docs/environment.md");
        assertHelp(pinmxRun("-h"), "-np N");
        assertVersion(pinmxRun("--version"));
        assertRefused(pinmxRun("-np", "2", "--bogus", "PingPong"), "pinmx-run: unknown option '--bogus'", "--help");
        assertRefused(pinmxRun("-np", "2", "Nonsense"), "pinmx-run: unknown PROGRAM 'Nonsense'");
    }

    @Test
    void theAdminToolAnswersHelpVersionAndAWrongCommand() throws Exception
    {
        final Outcome help = run(Map.of(), List.of(ADMIN.toString(), "--help"));
        assertHelp(help, "info", "endpoints", "counters", "peers", "PINMX_DRIVER");
        assertHelp(run(Map.of(), List.of(ADMIN.toString(), "-h")), "info");
        assertVersion(run(Map.of(), List.of(ADMIN.toString(), "--version")));
        assertRefused(run(Map.of(), List.of(ADMIN.toString(), "frobnicate")),
            "pinmx-admin: unknown command 'frobnicate'", "--help");
    }

    /** Each program's --help runs it alone, without -np; a wrong argument is said once, by rank 0. */
    @ParameterizedTest
    @CsvSource({
        "PingPong, 2, -msglog", "PingPing, 2, -msglog", "Sendrecv, 2, -msglog", "Exchange, 2, -msglog",
        "osu_latency, 2, -m [MIN:]MAX", "osu_bw, 2, -x n", "PinningPingPong, 2, -rounds", "MessageCost, 1, MESSAGE_BYTES",
        "osu_put_latency, 2, -m [MIN:]MAX", "osu_get_latency, 2, -i N", "osu_acc_latency, 2, -x N",
        "osu_fop_latency, 2, -l LOOPS", "osu_swap_latency, 2, PINMX_RMA_SHARED_MEMORY", "osu_lock_latency, 2, -m",
        "osu_put_bw, 2, -m", "osu_get_bw, 2, -m", "armci_strided, 2, -n MAX_N", "compute_window, 2, -w WINDOW_MS",
        "io.pinmx.rma.protocol.bench.ProtocolSweep, 2, REPS"})
    void everyProgramAnswersHelpVersionAndAWrongArgument(final String program, final int ranks, final String mentions)
        throws Exception
    {
        assertHelp(pinmxRun(program, "--help"), mentions, "exit status");
        assertVersion(pinmxRun(program, "--version"));
        final String wrong = program.startsWith("io.") || program.equals("MessageCost") ? "x1" : "--bogus";
        final Outcome o = pinmxRun("-np", Integer.toString(ranks), program, wrong);
        final String name = program.substring(program.lastIndexOf('.') + 1);
        assertRefused(o, "[rank 0] " + name + ": ", wrong, "--help");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "PINMX_PEER_TIMEOUT_MS|abc|expected milliseconds",
        "PINMX_BOOTSTRAP_TIMEOUT_MS|0|expected milliseconds",
        "PINMX_ADDRESS|not-an-ip|expected an IP address",
        "PINMX_ADDRESS|300.1.1.1|expected an IP address",
        "PINMX_IFACE|nope|expected a network interface of this host (",
        "PINMX_RMA_SHARED_MEMORY|maybe|expected 0 or 1",
        "PINMX_RMA_RECALIBRATE|yes|expected 0 or 1",
        "PINMX_RMA_STRIDED|fast|expected auto, direct or pack",
        "PINMX_RMA_CONTIGUOUS|fast|expected auto, zerocopy or stream",
        "PINMX_RMA_CALIBRATION|slow|expected full or quick",
        "PINMX_RMA_DIR|/nonexistent/dir|expected an existing directory",
        "PINMX_SAME_HOST|maybe|expected 0 or 1",
        "PINMX_SHM_DIR|/nonexistent/dir|expected an existing directory",
        "PINMX_BIND|weird|expected core or none",
        "PINMX_MPJ_PROGRESS|eager|expected caller or thread",
        "PINMX_SHARED_PULL_MIN_BYTES|-1|expected a byte count",
        "PINMX_BOOTSTRAP|somewhere|expected host:port",
        "PINMX_DRIVER|gpu|expected user, kernel or auto"})
    void aBadEnvironmentValueIsRefusedBeforeAnyJvmStarts(final String variable, final String value, final String allowed)
        throws Exception
    {
        final Outcome o = pinmxRun(Map.of(variable, value, "PINMX_CLASSPATH", NO_CLASSPATH), "-np", "2", "PingPong");
        assertRefused(o, "pinmx-run: " + variable + "='" + value + "': " + allowed);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "3|osu_put_latency|osu_put_latency needs 2 ranks, not 3",
        "1|PingPong|PingPong needs at least 2 ranks, not 1",
        "3|io.pinmx.rma.protocol.bench.ProtocolSweep|needs 2 ranks, not 3",
        "3|--mpj io.pinmx.mpj.npb.IntegerSort|needs a power-of-two number of ranks (NPB IS), not 3"})
    void aProgramGivenARankCountItCannotRunWithIsRefusedBeforeAnyJvmStarts(
        final String ranks, final String program, final String message) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("-np", ranks));
        args.addAll(List.of(program.split(" ")));
        assertRefused(pinmxRun(Map.of("PINMX_CLASSPATH", NO_CLASSPATH), args.toArray(String[]::new)),
            "pinmx-run: ", message);
        final Outcome underSlurm = pinmxRun(Map.of("PINMX_CLASSPATH", NO_CLASSPATH, "SLURM_PROCID", "0",
            "SLURM_NTASKS", ranks, "SLURM_JOB_ID", "7"), args.subList(2, args.size()).toArray(String[]::new));
        assertRefused(underSlurm, "pinmx-run: ", message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--plot /nonexistent/dir/x.png", "--plot /nonexistent/dir/x.svg"})
    void anOutputPathIsCheckedBeforeAnyWork(final String args) throws Exception
    {
        final List<String> all = new ArrayList<>(List.of("-np", "2", "PingPong"));
        all.addAll(List.of(args.split(" ")));
        final Outcome o = pinmxRun(all.toArray(String[]::new));
        assertRefused(o, "[rank 0] PingPong: --plot /nonexistent/dir/x.", ": no directory /nonexistent/dir");
    }

    /** The one-sided programs take OSU's options, and name the IMB or two-sided ones they do not take. */
    @Test
    void theOneSidedProgramsNameTheOptionsTheyDoNotTake() throws Exception
    {
        assertRefused(pinmxRun("-np", "2", "osu_put_latency", "-msglog", "0:10"),
            "osu_put_latency: -msglog is IMB's; the one-sided programs take OSU's -m [MIN:]MAX");
        assertRefused(pinmxRun("-np", "2", "osu_put_latency", "--plot", "x.png"),
            "osu_put_latency: --plot is an option of the two-sided programs");
        assertRefused(pinmxRun("-np", "2", "osu_put_latency", "-m"), "osu_put_latency: -m needs a value");
    }

    /** Ranks that poll, more of them than CPUs: said before the job starts. */
    @Test
    void moreRanksThanCpusIsSaid() throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("taskset", "-c", "0", RUN.toString(), "-np", "2",
            LauncherFixture.class.getName(), "driver"));
        final Outcome o = run(Map.of(), command);
        assertEquals(0, o.exit(), o.err());
        assertEquals(List.of("pinmx-run: warning: 2 ranks on 1 CPUs: ranks that poll take turns on the CPUs, so the " +
            "job runs far slower than with one CPU per rank (and start-up may need --timeout)"),
            o.errLines().stream().filter(l -> l.startsWith("pinmx-run:")).collect(Collectors.toList()), o.err());
    }

    /** The programs without a table of their own: --help, and a wrong argument where they take one. */
    @ParameterizedTest
    @CsvSource({"io.pinmx.job.example.RankRing, -np N", "io.pinmx.job.example.AllPairs, [BYTES]",
        "io.pinmx.rma.example.RmaRing, one-sided layer"})
    void theExamplesAnswerHelp(final String program, final String mentions) throws Exception
    {
        assertHelp(pinmxRun(program, "--help"), mentions, "exit status");
        assertHelp(pinmxRun(program, "-h"), mentions);
    }

    @Test
    void allPairsRefusesABadMessageSizeOnce() throws Exception
    {
        assertRefused(pinmxRun("-np", "2", "io.pinmx.job.example.AllPairs", "x1"),
            "[rank 0] AllPairs: BYTES 'x1': expected a positive number of bytes", "--help");
    }

    /** A program started by java itself, not through pinmx-run, says the same version line as pinmx-run. */
    @ParameterizedTest
    @ValueSource(strings = {"io.pinmx.bench.PingPong", "io.pinmx.bench.OsuLatency", "io.pinmx.bench.OsuBandwidth", "io.pinmx.bench.MessageCost",
        "io.pinmx.bench.PinningPingPong", "io.pinmx.bench.osc.OscBench osu_put_latency",
        "io.pinmx.rma.protocol.bench.ProtocolSweep", "io.pinmx.job.example.RankRing", "io.pinmx.job.example.AllPairs",
        "io.pinmx.rma.example.RmaRing"})
    void theJavaProgramsSayTheLaunchersVersionLine(final String program) throws Exception
    {
        final Outcome launcher = pinmxRun("--version");
        assertVersion(launcher);
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(program.split(" ")));
        command.add("--version");
        final Outcome java = run(Map.of(), command);
        assertEquals(0, java.exit(), java.err());
        assertEquals(launcher.out(), java.out());
    }

    /** Main classes this test does not start, and why; every other one under src/main must be started above. */
    private static final Map<String, String> EXEMPT = Map.ofEntries(
        Map.entry("io.pinmx.pin.admin.PinmxAdmin", "started by bin/pinmx-admin, driven above"),
        Map.entry("io.pinmx.bench.osc.OscCompare",
            "a post-processing tool of rma/bench/run.sh; OscCompareTest drives it"),
        Map.entry("io.pinmx.mpj.niodev.NiodevJob",
            "mpj-device/bench/run.sh's niodev baseline launcher; MpjEntryPointsTest covers the MPJ programs"),
        Map.entry("io.pinmx.mpj.niodev.BoundRank", "started by NiodevJob only, with MPJ's own arguments"),
        Map.entry("io.pinmx.mpj.npb.IntegerSort", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.bench.MpjPingPong", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.bench.MpjAllreduce", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.bench.MpjWakeup", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.jgf.JgfSection1", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.jgf.JgfSection2", "MPJ: mpj-device's MpjEntryPointsTest"),
        Map.entry("io.pinmx.mpj.bench.MpjCollectiveTimes", "MPJ: mpj-device's MpjEntryPointsTest"));
    private static final List<String> EXEMPT_PACKAGES = List.of(
        "io.pinmx.apps.", "the application programs: apps' AppsEntryPointsTest");

    @Test
    void everyMainClassIsStartedHereOrExemptWithAReason() throws Exception
    {
        final String source = Files.readString(Path.of("src", "test", "java", "io", "pinmx", "bench",
            "EntryPointsTest.java"));
        final List<String> missing = new ArrayList<>();
        try (var files = Files.walk(Path.of("..").toAbsolutePath().normalize(), 12))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java") &&
                f.toString().contains("/src/main/java/")).toList())
            {
                if (!Files.readString(file).contains("public static void main("))
                {
                    continue;
                }
                final String path = file.toString();
                final String name = path.substring(path.indexOf("/src/main/java/") + 15, path.length() - 5)
                    .replace('/', '.');
                final String simple = name.substring(name.lastIndexOf('.') + 1);
                final boolean started = source.contains("\"" + name) || source.contains("\"" + simple + ",") ||
                    source.contains("\"" + simple + "\"");
                if (!started && !EXEMPT.containsKey(name) && !name.startsWith(EXEMPT_PACKAGES.getFirst()))
                {
                    missing.add(name);
                }
            }
        }
        assertEquals(List.of(), missing, "main classes neither started by EntryPointsTest nor exempt");
    }
}
