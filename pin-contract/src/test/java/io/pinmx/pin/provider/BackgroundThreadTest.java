package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a background thread runs, read from /proc rather than from the calls that placed it.
 */
class BackgroundThreadTest
{
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_IDLE = 5;

    /** What /proc says of the calling thread: its policy and the CPUs it may use. */
    private record Placement(int policy, String cpus)
    {
        static Placement ofCallingThread()
        {
            try
            {
                final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
                // fields after the command's closing parenthesis start at field 3; the policy is field 41
                final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                return new Placement(Integer.parseInt(fields[41 - 3]), cpusAllowed(Path.of("/proc/thread-self/status")));
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }

    @Test
    void startedFromAThreadBoundToOneCpuItRunsUnderSchedIdleOnTheProcessCpusAndSoDoThreadsItStarts() throws Exception
    {
        final String processCpus = cpusAllowed(Path.of("/proc/self/status"));
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment before = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, before);
            final MemorySegment one = LibcScheduling.allocateCpuSet(arena);
            final int cpu = LibcScheduling.nthCpu(before, LibcScheduling.count(before) - 1);
            LibcScheduling.only(one, cpu);
            LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, one);
            try
            {
                assertEquals(new Placement(SCHED_OTHER, String.valueOf(cpu)), Placement.ofCallingThread());
                final CompletableFuture<Placement> own = new CompletableFuture<>();
                final CompletableFuture<Placement> child = new CompletableFuture<>();
                final Thread background = BackgroundThread.start("pinmx-test-background", () ->
                {
                    own.complete(Placement.ofCallingThread());
                    Thread.ofPlatform().start(() -> child.complete(Placement.ofCallingThread()));
                });
                assertEquals(new Placement(SCHED_IDLE, processCpus), own.get(30, TimeUnit.SECONDS));
                assertEquals(new Placement(SCHED_IDLE, processCpus), child.get(30, TimeUnit.SECONDS));
                assertEquals("pinmx-test-background", background.getName());
                assertTrue(background.isDaemon());
                assertEquals(new Placement(SCHED_OTHER, String.valueOf(cpu)), Placement.ofCallingThread(),
                    "the starting thread keeps its own placement");
            }
            finally
            {
                LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, before);
            }
        }
    }

    @Test
    void badCpuSetsAreRefusedNamingTheArgumentOrTheErrno()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment cpus = LibcScheduling.allocateCpuSet(arena);
            LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, cpus);
            final int count = LibcScheduling.count(cpus);
            final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                () -> LibcScheduling.nthCpu(cpus, count));
            assertTrue(beyond.getMessage().contains("n = " + count), beyond.getMessage());
            final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> LibcScheduling.only(cpus, -1));
            assertTrue(negative.getMessage().contains("cpu = -1"), negative.getMessage());
            final IllegalArgumentException tooHigh = assertThrows(IllegalArgumentException.class,
                () -> LibcScheduling.only(cpus, LibcScheduling.CPU_SET_BYTES * 8));
            assertTrue(tooHigh.getMessage().contains("cpu = 1024"), tooHigh.getMessage());
            final MemorySegment empty = LibcScheduling.allocateCpuSet(arena);
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> LibcScheduling.setAffinity(LibcScheduling.CALLING_THREAD, empty));
            assertTrue(refused.getMessage().contains("sched_setaffinity") &&
                refused.getMessage().contains("EINVAL"), refused.getMessage());
            assertEquals(count, countAllowed(arena), "a refused call changed nothing");
            final IllegalStateException noThread = assertThrows(IllegalStateException.class,
                () -> LibcScheduling.getAffinity(Integer.MAX_VALUE, cpus));
            assertTrue(noThread.getMessage().contains("thread " + Integer.MAX_VALUE) &&
                noThread.getMessage().contains("ESRCH"), noThread.getMessage());
        }
    }

    private static int countAllowed(final Arena arena)
    {
        final MemorySegment now = LibcScheduling.allocateCpuSet(arena);
        LibcScheduling.getAffinity(LibcScheduling.CALLING_THREAD, now);
        return LibcScheduling.count(now);
    }

    private static String cpusAllowed(final Path status) throws IOException
    {
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
            .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElseThrow();
    }
}
