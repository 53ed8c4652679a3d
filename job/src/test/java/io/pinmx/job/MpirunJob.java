package io.pinmx.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A job started by Open MPI's mpirun, each rank bin/pinmx-run on the calling test's class path, meeting through
 * mpirun's PMIx server (shipped in this module's test-jar for every module's PMIx launcher tests). The launcher's
 * variables of the test's own environment are dropped (SLURM_, PMI_, PMIX_, OMPI_, PINMX_), HOME is a directory
 * of the test's, and the output lands in {@code dir/out<suffix>}, {@code dir/err<suffix>}. {@link #assumeMpirun}
 * skips the calling test, saying why, where mpirun or the PMIx library is missing.
 */
public final class MpirunJob
{
    public static final Path MPIRUN = Path.of("/usr/bin/mpirun");
    public static final Path LIBPMIX = Path.of("/usr/lib/x86_64-linux-gnu/libpmix.so.2");

    private MpirunJob()
    {
    }

    /**
     * @throws org.opentest4j.TestAbortedException without mpirun (openmpi-bin) or libpmix.so.2 (libpmix2).
     */
    public static void assumeMpirun()
    {
        assumeTrue(Files.isExecutable(MPIRUN), "needs Open MPI's mpirun (apt-get install openmpi-bin)");
        assumeTrue(Files.exists(LIBPMIX), "needs PMIx's " + LIBPMIX + " (apt-get install libpmix2)");
    }

    /** The mpirun command line before the program: as root, oversubscribed, with PINMX_CLASSPATH forwarded. */
    public static List<String> mpirun(final int ranks, final List<String> forwarded)
    {
        final List<String> command = new ArrayList<>(List.of(MPIRUN.toString(), "--oversubscribe", "-np",
            Integer.toString(ranks), "-x", "PINMX_CLASSPATH", "-x", "JAVA_TOOL_OPTIONS"));
        if ("root".equals(System.getProperty("user.name")))
        {
            command.add(1, "--allow-run-as-root");
        }
        for (final String name : forwarded)
        {
            command.addAll(List.of("-x", name));
        }
        return command;
    }

    /**
     * Starts {@code command} with the test's class path as PINMX_CLASSPATH, {@code home} as HOME, and
     * {@code environment} on top.
     */
    public static Process start(
        final Path dir, final String suffix, final Path home, final Map<String, String> environment,
        final List<String> command) throws IOException
    {
        Files.createDirectories(home);
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out" + suffix).toFile())
            .redirectError(dir.resolve("err" + suffix).toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") ||
            k.startsWith("PMIX_") || k.startsWith("OMPI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        pb.environment().put("HOME", home.toString());
        pb.environment().putAll(environment);
        return pb.start();
    }

    /**
     * Runs {@code ranks} ranks of bin/pinmx-run {@code args} under mpirun on this host to the end (deadline in s),
     * with {@code environment} forwarded to every rank.
     */
    public static LaunchedJob.Result run(
        final Path dir, final String suffix, final long deadlineS, final Map<String, String> environment,
        final int ranks, final String... args) throws IOException, InterruptedException
    {
        return run(dir, suffix, deadlineS, environment, List.of(), ranks, args);
    }

    /** As {@link #run(Path, String, long, Map, int, String...)}, with {@code options} for mpirun itself. */
    public static LaunchedJob.Result run(
        final Path dir, final String suffix, final long deadlineS, final Map<String, String> environment,
        final List<String> options, final int ranks, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = mpirun(ranks, List.copyOf(environment.keySet()));
        command.addAll(options);
        command.add(LaunchedJob.LAUNCHER.toString());
        command.addAll(List.of(args));
        return LaunchedJob.finish(start(dir, suffix, dir.resolve("home" + suffix), environment, command), dir, suffix,
            deadlineS);
    }

    /** The lines of {@code text} that start with {@code prefix}. */
    public static List<String> lines(final String text, final String prefix)
    {
        return text.lines().filter(l -> l.startsWith(prefix)).toList();
    }
}
