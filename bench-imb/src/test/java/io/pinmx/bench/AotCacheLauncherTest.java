package io.pinmx.bench;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/pinmx-run with PINMX_AOT_CACHE: the first job of a launch configuration trains its JDK AOT cache (rank 0
 * records, the launcher makes the cache after the job), later jobs start every rank from it; another class path
 * gets a cache of its own; a cache the JVM refuses does not fail the job; a class path with a directory gets none.
 * Caches are made by JDK 25 and later: the build's JDK.
 */
class AotCacheLauncherTest
{
    private static final long RUN_DEADLINE_S = 180;
    private static final String RING = "io.pinmx.job.example.RankRing";

    @TempDir
    Path dir;

    /** The test's own class path, its jars only (the JVM caches classes from jars only). */
    private static String jarClassPath()
    {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)))
            .collect(Collectors.joining(File.pathSeparator));
    }

    private LaunchedJob.Result ring(final String classPath, final String cacheDirectory) throws Exception
    {
        final LaunchedJob.Result r = LaunchedJob.run(dir, RUN_DEADLINE_S,
            Map.of("PINMX_CLASSPATH", classPath, "PINMX_AOT_CACHE", cacheDirectory), "-np", "2", RING);
        assertEquals(0, r.exitStatus(), r.err());
        assertTrue(r.out().contains("rank 0 of 2 got "), r.out() + r.err());
        return r;
    }

    private static List<Path> files(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (Stream<Path> s = Files.list(directory))
        {
            return s.sorted().toList();
        }
    }

    private static List<Path> caches(final Path directory) throws IOException
    {
        return files(directory).stream().filter(p -> p.toString().endsWith(".aot")).toList();
    }

    @Test
    void theFirstJobTrainsTheCacheAndLaterJobsStartFromIt() throws Exception
    {
        final Path aot = dir.resolve("aot");
        final String classPath = jarClassPath();
        ring(classPath, aot.toString());
        final List<Path> made = caches(aot);
        assertEquals(1, made.size(), "one cache after the training job: " + files(aot));
        assertEquals(made, files(aot), "no training file or partial cache left: " + files(aot));
        final FileTime madeAt = Files.getLastModifiedTime(made.getFirst());

        ring(classPath, aot.toString());
        assertEquals(made, files(aot), "the second job made nothing new");
        assertEquals(madeAt, Files.getLastModifiedTime(made.getFirst()), "the second job used the cache as it was");

        // Another class path (the same jars, one named twice) never gets the first one's cache.
        ring(classPath + File.pathSeparator + classPath.split(File.pathSeparator)[0], aot.toString());
        assertEquals(2, caches(aot).size(), "a cache of its own for the other class path: " + files(aot));

        // A cache the JVM refuses (here: not a cache at all) is said on each rank's stderr; the job runs without it.
        Files.write(made.getFirst(), new byte[64 * 1024]);
        final LaunchedJob.Result refused = ring(classPath, aot.toString());
        for (final String rank : List.of("[rank 0] ", "[rank 1] "))
        {
            assertTrue(refused.err().lines().anyMatch(line -> line.startsWith(rank) && line.contains("AOT cache")),
                rank + "was given the cache and its JVM said why it refused it: " + refused.err());
        }
    }

    @Test
    void aClassPathWithADirectoryRunsWithoutACache() throws Exception
    {
        final Path aot = dir.resolve("aot");
        final Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("note.txt"), "not a jar");
        ring(classes + File.pathSeparator + jarClassPath(), aot.toString());
        assertEquals(List.of(), files(aot));
    }

    @Test
    void withoutTheVariableNoCacheIsMadeAndABadValueIsRefused() throws Exception
    {
        final Path home = dir.resolve("home");
        final LaunchedJob.Result unset = LaunchedJob.run(dir, RUN_DEADLINE_S,
            Map.of("PINMX_CLASSPATH", jarClassPath(), "HOME", home.toString()), "-np", "2", RING);
        assertEquals(0, unset.exitStatus(), unset.err());
        assertEquals(List.of(), files(home.resolve(".pinmx").resolve("aot")));

        final LaunchedJob.Result bad = LaunchedJob.run(dir, RUN_DEADLINE_S,
            Map.of("PINMX_CLASSPATH", jarClassPath(), "PINMX_AOT_CACHE", "aot-here"), "-np", "2", RING);
        assertEquals(2, bad.exitStatus(), bad.err());
        assertTrue(bad.err().contains("PINMX_AOT_CACHE='aot-here': expected off, on or the absolute path of a directory"),
            bad.err());
    }
}
