package io.pinmx.bench;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * bin/pinmx-run starting real JVMs, over the TCP transport (pinmx needs nothing more than the launcher gives).
 */
class LauncherTest
{
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    private LaunchedJob.Result runWith(final Map<String, String> env, final String... args) throws Exception
    {
        return LaunchedJob.run(dir, RUN_DEADLINE_S, env, args);
    }

    /** As runWith, without the JVM's notice of the test's JAVA_TOOL_OPTIONS (LaunchedJob's counters file) on stderr. */
    private LaunchedJob.Result runQuietJvm(final Map<String, String> env, final String... args) throws Exception
    {
        final LaunchedJob.Result r = runWith(env, args);
        return new LaunchedJob.Result(r.exitStatus(), r.out(), r.err().lines()
            .filter(line -> !line.contains("Picked up JAVA_TOOL_OPTIONS")).map(line -> line + "\n")
            .collect(java.util.stream.Collectors.joining()));
    }

    private LaunchedJob.Result run(final String... args) throws Exception
    {
        return runWith(Map.of(), args);
    }

    @Test
    void twoRanksRunPingPongWithTheBaselineRatiosAndAPlot() throws Exception
    {
        final Path plot = dir.resolve("pingpong.svg");
        final Path csv = dir.resolve("pingpong.csv");
        final Path json = dir.resolve("pingpong.json");
        final LaunchedJob.Result o = run("-np", "2", "PingPong", "--transport", "tcp", "--baseline", "tcp",
            "-msglog", "0:3", "-iter", "20", "--plot", plot.toString(), "--csv", csv.toString(), "--json", json.toString());
        assertEquals(0, o.exitStatus(), o.err());
        final List<Measurement> rows = o.out().lines().map(TableLayout.IMB_TIME::parse).filter(Objects::nonNull).toList();
        assertEquals(List.of(0L, 1L, 2L, 4L, 8L, 0L, 1L, 2L, 4L, 8L), rows.stream().map(Measurement::bytes).toList());
        assertTrue(rows.stream().allMatch(m -> 20 == m.repetitions() && m.latencyUsec() > 0), o.out());
        // The headline: 8 B latency; the largest size is 8 B too, so no bandwidth line.
        final List<Ratio> ratios = o.out().lines().map(Ratio::parse).filter(Objects::nonNull).toList();
        assertEquals(1, ratios.size(), o.out());
        assertTrue(ratios.stream().allMatch(r -> Ratio.LATENCY.equals(r.metric()) && 8 == r.bytes() &&
            "tcp".equals(r.measured()) && "tcp".equals(r.baseline()) && r.value() > 0), o.out());
        assertTrue(o.out().contains("\n      #bytes         tcp         tcp     tcp/tcp\n"), o.out());
        assertEquals(5, o.out().lines().filter(l -> l.matches(" +[0-9]+ +[0-9]+\\.[0-9]+ +[0-9]+\\.[0-9]+ +[0-9.]+")).count(), o.out());
        assertTrue(o.out().contains("# progress: tcp: blocking SocketChannel"), o.out());
        assertTrue(o.out().contains("# tcp: opening, then JIT warm-up (at most 30 s) before the first size\n#---"),
            o.out());
        assertTrue(o.out().contains("# memcpy (MemorySegment.copy, 1 thread, 4194304 B, same run): "), o.out());
        assertTrue(Files.readString(plot).contains("<svg"), "plot is not an SVG");
        final List<String> csvLines = Files.readAllLines(csv);
        assertEquals(ResultFiles.CSV_HEADER, csvLines.get(0));
        assertEquals(11, csvLines.size(), csvLines.toString());
        assertTrue(csvLines.get(1).startsWith("PingPong,baseline,tcp,0,20,") &&
            csvLines.get(10).startsWith("PingPong,measured,tcp,8,20,"), csvLines.toString());
        final String jsonText = Files.readString(json);
        assertTrue(jsonText.startsWith("{\"benchmark\":\"PingPong\",\"processes\":2,\"measured\":{\"transport\":\"tcp\""),
            jsonText);
        // Every size's ratios: 5 latency, 4 bandwidth (none at 0 B).
        assertEquals(9, jsonText.split("\"metric\":", -1).length - 1, jsonText);
    }

    @Test
    void pinmxRunsOverTheEndpointLibraryAgainstTheTcpBaseline() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "2", "--driver", "user", "PingPong", "--baseline", "tcp", "-msglog", "0:16", "-iter", "20");
        assertEquals(0, o.exitStatus(), o.err());
        assertTrue(o.out().contains("# Benchmarking PingPong over pinmx"), o.out());
        assertTrue(o.out().contains("# progress: pinmx: user driver"), o.out());
        // The headline: 8 B latency and 64 KiB bandwidth against tcp, and 64 KiB against memcpy.
        final List<Ratio> ratios = o.out().lines().map(Ratio::parse).filter(Objects::nonNull).toList();
        assertEquals(List.of("latency 8 tcp", "bandwidth 65536 tcp", "bandwidth 65536 memcpy"),
            ratios.stream().map(r -> r.metric() + " " + r.bytes() + " " + r.baseline()).toList(), o.out());
        assertTrue(ratios.stream().allMatch(r -> "pinmx".equals(r.measured())), o.out());
    }

    @Test
    void busyPollingBaselinesRunInTheSameProgressModeWithRatiosAgainstEach() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "2", "PingPong", "--transport", "aeron", "--baseline", "tcp,tcp-busy",
            "-msglog", "0:3", "-iter", "20", "-loops", "3");
        assertEquals(0, o.exitStatus(), o.err());
        assertTrue(o.out().contains("# Timed loops           : 3 per size"), o.out());
        assertTrue(o.out().contains("# progress: tcp-busy: non-blocking SocketChannels"), o.out());
        assertTrue(o.out().contains("# progress: aeron: Aeron IPC"), o.out());
        final List<Measurement> rows = o.out().lines().map(TableLayout.IMB_TIME::parse).filter(Objects::nonNull).toList();
        assertEquals(15, rows.size(), o.out());
        assertTrue(rows.stream().allMatch(m -> 20 == m.repetitions() && m.latencyUsec() > 0), o.out());
        final List<Ratio> ratios = o.out().lines().map(Ratio::parse).filter(Objects::nonNull).toList();
        assertEquals(List.of("aeron/tcp 8", "aeron/tcp-busy 8"),
            ratios.stream().map(r -> r.measured() + "/" + r.baseline() + " " + r.bytes()).toList(), o.out());
        assertTrue(o.out().contains("      #bytes       aeron         tcp   aeron/tcp    tcp-busy  aeron/tcp-busy\n"),
            o.out());
    }

    @Test
    void osuLatencyTakesOsusSizesAndIterations() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "2", "osu_latency", "--transport", "tcp", "-m", "2:8", "-i", "30", "-x", "3");
        assertEquals(0, o.exitStatus(), o.err());
        final List<Measurement> rows = o.out().lines().map(TableLayout.OSU_LATENCY::parse).filter(Objects::nonNull).toList();
        assertEquals(List.of(0L, 2L, 4L, 8L), rows.stream().map(Measurement::bytes).toList(), o.out());
    }

    @Test
    void threeRanksRunSendrecvWithMinMaxAvgColumns() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "3", "Sendrecv", "--transport", "tcp", "-msglog", "0:2", "-iter", "10");
        assertEquals(0, o.exitStatus(), o.err());
        final List<Measurement> rows =
            o.out().lines().map(TableLayout.IMB_MIN_MAX_AVG::parse).filter(Objects::nonNull).toList();
        assertEquals(List.of(0L, 1L, 2L, 4L), rows.stream().map(Measurement::bytes).toList());
        assertTrue(rows.stream().allMatch(m -> m.tMinUsec() <= m.tAvgUsec() && m.tAvgUsec() <= m.tMaxUsec()), o.out());
        assertTrue(o.out().contains("# #processes = 3"), o.out());
    }

    @Test
    void aMainClassOfTheJobModuleRunsOnTheBenchClasspath() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "2", "io.pinmx.job.example.RankRing");
        assertEquals(0, o.exitStatus(), o.err());
        assertEquals("rank 0 of 2 got 1 from rank 1", o.out().trim(), o.err());
        assertTrue(o.err().contains("[rank 1] rank 1 of 2 got 0 from rank 0"), o.err());
    }

    @Test
    void launcherArgumentErrorsNameTheArgument() throws Exception
    {
        assertUsage("pinmx-run: -np 'x': expected a positive number of processes", "-np", "x", "PingPong");
        assertUsage("pinmx-run: unknown PROGRAM 'Nonsense'", "-np", "2", "Nonsense");
        assertUsage("pinmx-run: --driver 'gpu': expected user or kernel", "-np", "2", "--driver", "gpu", "PingPong");
        assertUsage("pinmx-run: no PROGRAM given", "-np", "2");
        assertUsage("pinmx-run: -np N is required outside Slurm, Open MPI, PMI and PMIx", "PingPong");
        assertUsage("pinmx-run: --timeout '0s': expected a positive number of seconds", "-np", "2", "--timeout", "0s", "PingPong");
    }

    @Test
    void theCallersPinmxDriverIsHonouredAndAnExplicitDriverWins() throws Exception
    {
        final String fixture = LauncherFixture.class.getName();
        LaunchedJob.Result o = runQuietJvm(Map.of(), "-np", "1", fixture, "driver");
        assertEquals(new LaunchedJob.Result(0, "rank 0 driver user\n", ""), o);
        o = runQuietJvm(Map.of("PINMX_DRIVER", "auto"), "-np", "1", fixture, "driver");
        assertEquals(new LaunchedJob.Result(0, "rank 0 driver auto\n", ""), o);
        o = runQuietJvm(Map.of("PINMX_DRIVER", "kernel"), "-np", "1", "--driver", "user", fixture, "driver");
        assertEquals(new LaunchedJob.Result(0, "rank 0 driver user\n", ""), o);

        o = runQuietJvm(Map.of("PINMX_DRIVER", "gpu"), "-np", "1", fixture, "driver");
        assertEquals(2, o.exitStatus(), o.err());
        assertEquals("pinmx-run: PINMX_DRIVER='gpu': expected user, kernel or auto\n", o.err());
        if (!Files.exists(Path.of("/dev/pinmx")))
        {
            o = runQuietJvm(Map.of("PINMX_DRIVER", "kernel"), "-np", "1", fixture, "driver");
            assertEquals(new LaunchedJob.Result(2, "",
                "pinmx-run: PINMX_DRIVER=kernel needs /dev/pinmx (load kmod/pinmx.ko), or use --driver user\n"), o);
        }
    }

    private void assertUsage(final String message, final String... args) throws Exception
    {
        final LaunchedJob.Result o = run(args);
        assertEquals(2, o.exitStatus(), o.err());
        assertEquals(message + " (pinmx-run --help lists the options)\n", o.err());
        assertEquals("", o.out());
    }

    @Test
    void aBadBenchmarkArgumentIsSaidOnceAndTheJobFails() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "2", "PingPong", "--transport", "tcp", "--bogus");
        assertEquals(2, o.exitStatus(), o.err());
        assertEquals(1, o.err().lines().filter(l -> l.contains("PingPong: unknown argument '--bogus'")).count(), o.err());
        assertTrue(o.err().contains("[rank 0] PingPong: unknown argument '--bogus'"), o.err());
        assertFalse(o.err().contains("\u001b["), "no terminal escape codes: " + o.err());
    }

    /**
     * Every rank refuses the same arguments and rank 0 alone says why: when the others exit first, rank 0 is not
     * stopped before it has said it, and the launcher adds nothing of its own.
     */
    @Test
    void aBadArgumentIsSaidByRankZeroEvenWhenAnotherRankExitsFirst() throws Exception
    {
        final LaunchedJob.Result o = runQuietJvm(Map.of(), "-np", "2", LauncherFixture.class.getName(), "usage-slow-rank-0");
        assertEquals(new LaunchedJob.Result(2, "", "[rank 0] LauncherFixture: bad argument, said by rank 0\n"), o);
    }

    /** The real case: PingPong's bad arguments, said once in one line, in every one of a few tries. */
    @Test
    void aBadBenchmarkArgumentIsSaidOnceInEveryTry() throws Exception
    {
        for (int attempt = 0; attempt < 3; attempt++)
        {
            final LaunchedJob.Result o = runQuietJvm(Map.of(), "-np", "2", "PingPong", "-iter", "0");
            assertEquals(new LaunchedJob.Result(2, "", "[rank 0] PingPong: -iter: repetitions per sample must be at " +
                "least 1, got 0 (PingPong --help lists the arguments)\n"), o);
        }
    }

    /**
     * Many ranks ending at once (all timing out together, or stopped together after one failed): the launcher's
     * wait says only which rank failed. The ranks here are plain processes; bash collects the stopped ones in bulk.
     */
    @Test
    void manyRanksEndingAtOnceAreWaitedForWithoutNoise() throws Exception
    {
        final Path script = dir.resolve("ranks.sh");
        Files.writeString(script, """
            source "$1/scripts/lib.sh"
            pids=()
            (sleep 1; exit 0) & pids+=($!)
            (sleep 1; exit 3) & pids+=($!)
            for i in $(seq 2 99); do sleep 120 & pids+=($!); done
            pinmx_wait_ranks "${pids[@]}"
            echo "job status $?"
            """);
        final Process p = new ProcessBuilder("bash", script.toString(), LaunchedJob.LAUNCHER.getParent().getParent().toString())
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile()).start();
        assertTrue(p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS), "the wait did not end");
        assertEquals("job status 3\n", Files.readString(dir.resolve("out")));
        assertEquals("pinmx-run: rank 1 exited with status 3; stopping the others\n", Files.readString(dir.resolve("err")));
    }

    /**
     * A rank whose exit bash collected before the launcher's wait began (as another wait or a trap may): wait -n no
     * longer reports it, so only the launcher's own look for ranks that are gone ends the job.
     */
    @Test
    void aRankCollectedBeforeTheWaitStillStopsTheOthers() throws Exception
    {
        final Path script = dir.resolve("collected.sh");
        Files.writeString(script, """
            source "$1/scripts/lib.sh"
            pids=()
            sleep 120 & pids+=($!)
            (sleep 0.2; exit 3) & pids+=($!)
            sleep 120 & pids+=($!)
            wait "${pids[1]}"
            pinmx_wait_ranks "${pids[@]}"
            echo "job status $?"
            """);
        final Process p = new ProcessBuilder("bash", script.toString(), LaunchedJob.LAUNCHER.getParent().getParent().toString())
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile()).start();
        try
        {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the wait did not end");
        }
        finally
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertEquals("job status 3\n", Files.readString(dir.resolve("out")));
        assertEquals("pinmx-run: rank 1 exited with status 3; stopping the others\n", Files.readString(dir.resolve("err")));
    }

    @Test
    void oneRankFailingStopsTheOthersAndSetsTheExitStatus() throws Exception
    {
        final LaunchedJob.Result o = run("-np", "3", LauncherFixture.class.getName(), "fail-rank-1");
        assertEquals(3, o.exitStatus(), o.err());
        assertTrue(o.err().contains("[rank 1] rank 1 failing on purpose"), o.err());
        assertTrue(o.err().contains("pinmx-run: rank 1 exited with status 3; stopping the others"), o.err());
    }

    @Test
    void interruptingTheLauncherKillsEveryRank() throws Exception
    {
        final Process p = LaunchedJob.start(dir, Map.of(), "-np", "2", LauncherFixture.class.getName(), "block");
        await().atMost(Duration.ofSeconds(RUN_DEADLINE_S)).until(() ->
            Files.readString(dir.resolve("out")).contains("ready 0") && Files.readString(dir.resolve("err")).contains("ready 1"));
        final List<ProcessHandle> ranks = p.descendants()
            .filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false)).toList();
        assertEquals(2, ranks.size(), "rank JVMs under the launcher");
        p.destroy();
        assertTrue(p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS), "launcher did not stop");
        assertEquals(143, p.exitValue());
        await().atMost(Duration.ofSeconds(30)).until(() -> ranks.stream().noneMatch(ProcessHandle::isAlive));
        assertTrue(Files.readString(dir.resolve("err")).contains("pinmx-run: interrupted, stopping 2 ranks"));
    }

    @ParameterizedTest
    @CsvSource({"PMI_RANK,PMI_SIZE", "SLURM_PROCID,SLURM_NTASKS"})
    void underAnExistingLauncherEachTaskStartsOneRankAndTheyMeet(final String rankVariable, final String sizeVariable)
        throws Exception
    {
        final Path bootstrap = dir.resolve("bootstrap-" + rankVariable);
        final List<Process> launchers = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++)
        {
            launchers.add(LaunchedJob.start(dir, Integer.toString(rank), Map.of(rankVariable, Integer.toString(rank),
                sizeVariable, "2", "PINMX_BOOTSTRAP", "file:" + bootstrap), List.of(LauncherFixture.class.getName(), "join")));
        }
        for (int rank = 0; rank < 2; rank++)
        {
            final Process p = launchers.get(rank);
            assertTrue(p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS), "rank " + rank + " did not finish");
            assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err" + rank)));
            assertEquals("rank " + rank + " of 2 saw 0 1", Files.readString(dir.resolve("out" + rank)).trim());
        }
    }

    /**
     * Three PMI tasks (one pinmx-run each, no parent watching them, as srun and mpirun start them) run Sendrecv over
     * pinmx; rank 1's JVM is killed once the table starts. Rank 2 waits on it (a receive) and must fail promptly,
     * naming rank 1 and its process, instead of waiting forever; rank 0 waits on rank 2 (its send to rank 1 may be
     * acknowledged already) and fails as soon as either of them is gone.
     */
    @Test
    void underPmiTheSurvivorsOfAKilledRankFailNamingIt() throws Exception
    {
        final Path bootstrap = dir.resolve("bootstrap-killed");
        final List<Process> launchers = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++)
        {
            launchers.add(LaunchedJob.start(dir, Integer.toString(rank), Map.of("PMI_RANK", Integer.toString(rank),
                "PMI_SIZE", "3", "PINMX_BOOTSTRAP", "file:" + bootstrap), List.of("Sendrecv", "-msglog", "0:22")));
        }
        try
        {
            await("rank 0 printed its table's header").atMost(Duration.ofSeconds(RUN_DEADLINE_S))
                .until(() -> Files.readString(dir.resolve("out0")).contains("#bytes"));
            // under a launcher pinmx-run becomes the rank's JVM (exec)
            final ProcessHandle rank1 = launchers.get(1).toHandle();
            assertTrue(rank1.info().command().map(c -> c.endsWith("/java")).orElse(false), rank1.info().toString());
            assertTrue(rank1.destroyForcibly(), "kill -9 of rank 1's JVM");
            assertSurvivorsFailNaming(launchers, rank1.pid());
        }
        finally
        {
            launchers.forEach(Process::destroyForcibly);
        }
    }

    /**
     * As above, with rank 1 killed where no message is pending: every rank finished a Sendrecv round over pinmx, and
     * ranks 0 and 2 wait for rank 1 in a barrier, where only the control connection can tell them it died (their
     * waits spin running the endpoint's progress, never blocked in a read).
     */
    @Test
    void underPmiRanksInABarrierNameARankKilledBetweenMessages() throws Exception
    {
        final Path bootstrap = dir.resolve("bootstrap-barrier");
        final List<Process> launchers = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++)
        {
            launchers.add(LaunchedJob.start(dir, Integer.toString(rank), Map.of("PMI_RANK", Integer.toString(rank),
                "PMI_SIZE", "3", "PINMX_BOOTSTRAP", "file:" + bootstrap),
                List.of(LauncherFixture.class.getName(), "killed-between-messages")));
        }
        try
        {
            final String killed = "rank 1 kills itself, pid ";
            await("rank 1 killed itself").atMost(Duration.ofSeconds(RUN_DEADLINE_S))
                .until(() -> Files.readString(dir.resolve("out1")).contains(killed));
            final String out1 = Files.readString(dir.resolve("out1"));
            final long pid = Long.parseLong(out1.substring(out1.indexOf(killed) + killed.length()).trim());
            assertSurvivorsFailNaming(launchers, pid);
        }
        finally
        {
            launchers.forEach(Process::destroyForcibly);
        }
    }

    /** Ranks 0 and 2 exit non-zero within a minute, naming rank 1 and its pid (rank 0 may name rank 2 instead). */
    private void assertSurvivorsFailNaming(final List<Process> launchers, final long rank1Pid) throws Exception
    {
        for (final int rank : new int[] {0, 2})
        {
            final Process p = launchers.get(rank);
            final int survivor = rank;
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), () -> "rank " + survivor + " still runs a minute after " +
                "rank 1 died; its stderr: " + tail(dir.resolve("err" + survivor)) + "; its stdout: " +
                tail(dir.resolve("out" + survivor)));
            final String err = Files.readString(dir.resolve("err" + rank));
            assertTrue(p.exitValue() != 0, "rank " + rank + " exited 0: " + err);
            assertTrue(err.contains("rank 1 (") && err.contains("pid " + rank1Pid) ||
                0 == rank && err.contains("rank 2 ("), "rank " + rank + ": " + err);
        }
    }

    @Test
    void underPmiWithoutABootstrapAddressTheLauncherSaysWhatToSet() throws Exception
    {
        final LaunchedJob.Result o = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of("PMI_RANK", "0", "PMI_SIZE", "2"),
            LauncherFixture.class.getName(), "join");
        assertEquals(2, o.exitStatus(), o.err());
        assertEquals("pinmx-run: under pmi no job id found (SLURM_JOB_ID, PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid): " +
            "set PINMX_BOOTSTRAP=host:port (where rank 0 listens) or file:PATH", o.err().trim());
    }

    /** The last 2,000 characters of a rank's output file, for a failure message. */
    private static String tail(final Path file)
    {
        try
        {
            final String text = Files.readString(file);
            return text.substring(Math.max(0, text.length() - 2_000));
        }
        catch (final IOException e)
        {
            return "(unreadable: " + e + ")";
        }
    }
}
