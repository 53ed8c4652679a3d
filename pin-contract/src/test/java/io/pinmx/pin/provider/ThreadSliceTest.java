package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A thread's own time slice, read back from /proc rather than from the call that set it. Linux grants custom slices
 * to fair threads from 6.12 on; older kernels are skipped.
 */
class ThreadSliceTest
{
    private static final long SLICE_NS = 250_000;

    @Test
    void aThreadGetsTheSliceItAsksForAndTheKernelDefaultBackWithZero() throws Exception
    {
        assumeTrue(customSlices(), "custom slices need Linux 6.12 or later: " + System.getProperty("os.version"));
        final long kernelDefault = onNewThread(ThreadSliceTest::sliceOfCallingThread);
        assertTrue(kernelDefault != SLICE_NS, "the default differs from the slice the test asks for");
        final long[] seen = onNewThread(() ->
        {
            final int set = LibcScheduling.sliceForCallingThread(SLICE_NS);
            final long asked = sliceOfCallingThread();
            final CompletableFuture<Long> child = new CompletableFuture<>();
            Thread.ofPlatform().start(() -> child.complete(sliceOfCallingThread()));
            final int reset = LibcScheduling.sliceForCallingThread(0);
            return new long[] {set, asked, child.join(), reset, sliceOfCallingThread()};
        });
        assertEquals(0, seen[0], "sched_setattr errno");
        assertEquals(SLICE_NS, seen[1], "the thread's slice");
        assertEquals(SLICE_NS, seen[2], "a thread it starts inherits the slice");
        assertEquals(0, seen[3], "sched_setattr errno of the reset");
        assertEquals(kernelDefault, seen[4], "0 gives the kernel's default back");
    }

    @Test
    void aThreadUnderSchedIdleKeepsItsPolicyAndIsToldEperm() throws Exception
    {
        final int[] errnos = onNewThread(() -> new int[] {LibcScheduling.idlePolicyForCallingThread(),
            LibcScheduling.sliceForCallingThread(SLICE_NS)});
        assertEquals(0, errnos[0], "sched_setscheduler(SCHED_IDLE) errno");
        assertEquals(Errno.EPERM, errnos[1]);
    }

    @Test
    void slicesLinuxDoesNotGrantAreRefusedNamingTheArgument()
    {
        for (final long bad : new long[] {-1, LibcScheduling.MIN_SLICE_NS - 1, LibcScheduling.MAX_SLICE_NS + 1})
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> LibcScheduling.sliceForCallingThread(bad));
            assertTrue(refused.getMessage().contains("sliceNs = " + bad), refused.getMessage());
        }
    }

    private static <T> T onNewThread(final Supplier<T> task) throws Exception
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().start(() ->
        {
            try
            {
                result.complete(task.get());
            }
            catch (final RuntimeException ex)
            {
                result.completeExceptionally(ex);
            }
        });
        return result.get(30, TimeUnit.SECONDS);
    }

    private static long sliceOfCallingThread()
    {
        try
        {
            return Files.readAllLines(Path.of("/proc/thread-self/sched")).stream()
                .filter(l -> l.startsWith("se.slice")).map(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim()))
                .findFirst().orElseThrow(() -> new IllegalStateException("/proc/thread-self/sched has no se.slice"));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** @return whether the running kernel is 6.12 or later. */
    private static boolean customSlices()
    {
        final String[] version = System.getProperty("os.version").split("[.-]");
        final int major = Integer.parseInt(version[0]);
        return major > 6 || (6 == major && Integer.parseInt(version[1]) >= 12);
    }
}
