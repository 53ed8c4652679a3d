package io.pinmx.pin.user;

import io.pinmx.pin.provider.ProgressSlice;
import io.pinmx.pin.spi.DriverEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The user driver's own threads are agents on pin-contract's ProgressRunner: a progress thread named after the
 * endpoint, or without one a responder thread (unless turned off too), each a daemon that close ends before it
 * returns; with neither, the endpoint has no thread of its own. The progress thread runs with the options' time slice.
 */
class EndpointAgentThreadsTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final OpenedEndpoints resources = new OpenedEndpoints();

    @AfterEach
    void closeAll()
    {
        resources.close();
    }

    private static UserDriverOptions options()
    {
        return UserDriverOptions.defaults().withCountersFile(null);
    }

    @Test
    void theProgressThreadIsADaemonThatCloseEnds()
    {
        final DriverEndpoint endpoint = resources.open(options());
        assertThreadEndsWithClose(endpoint, "pinmx-progress-" + endpoint.address());
    }

    @Test
    void theProgressThreadRunsWithTheOptionsTimeSlice() throws IOException
    {
        final String release = System.getProperty("os.version");
        final String[] version = release.split("[.-]");
        assumeTrue(Integer.parseInt(version[0]) > 6 ||
            (6 == Integer.parseInt(version[0]) && Integer.parseInt(version[1]) >= 12),
            "custom slices need Linux 6.12 or later: " + release);
        final long sliceNs = 350_000;
        final DriverEndpoint endpoint = resources.open(options().withProgressSliceNs(sliceNs));
        await().atMost(TIMEOUT).until(() -> thread("pinmx-progress-" + endpoint.address()), t -> null != t);
        // Linux keeps 15 characters of a thread's name: every progress thread is "pinmx-progress-"
        await().atMost(TIMEOUT).until(() -> progressThreadSlicesNs().contains(sliceNs));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> options().withProgressSliceNs(50_000));
        assertTrue(refused.getMessage().contains("progressSliceNs 50000"), refused.getMessage());
    }

    @Test
    void theSliceComesFromTheEnvironmentInMicrosecondsAndBadValuesAreRefusedNamingTheVariable()
    {
        assertEquals(ProgressSlice.DEFAULT_NS, ProgressSlice.fromEnvironment(Map.of()));
        assertEquals(0, ProgressSlice.fromEnvironment(Map.of(ProgressSlice.VARIABLE, "0")));
        assertEquals(2_500_000,
            ProgressSlice.fromEnvironment(Map.of(ProgressSlice.VARIABLE, "2500")));
        for (final String bad : new String[] {"99", "100001", "-100", "fast", ""})
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ProgressSlice.fromEnvironment(Map.of(ProgressSlice.VARIABLE, bad)));
            assertTrue(refused.getMessage().startsWith("PINMX_PROGRESS_SLICE_US=" + bad + ":"), refused.getMessage());
        }
    }

    @Test
    void withoutAProgressThreadTheResponderIsADaemonThatCloseEnds()
    {
        final DriverEndpoint endpoint = resources.open(options().withProgressThread(false));
        assertNull(thread("pinmx-progress-" + endpoint.address()), "no progress thread");
        assertThreadEndsWithClose(endpoint, "pinmx-responder-" + endpoint.address());
    }

    @Test
    void withNeitherTheEndpointHasNoThreadOfItsOwn()
    {
        final DriverEndpoint endpoint = resources.open(options().withProgressThread(false).withResponder(false));
        assertNull(thread("pinmx-progress-" + endpoint.address()));
        assertNull(thread("pinmx-responder-" + endpoint.address()));
    }

    private static void assertThreadEndsWithClose(final DriverEndpoint endpoint, final String name)
    {
        final Thread thread = await().atMost(TIMEOUT).until(() -> thread(name), t -> null != t && t.isAlive());
        assertTrue(thread.isDaemon(), name + " keeps no JVM alive");
        endpoint.close();
        assertFalse(thread.isAlive(), "close returned before " + name + " ended");
    }

    /** @return the se.slice of every thread of this JVM named "pinmx-progress-" (as Linux keeps it). */
    private static List<Long> progressThreadSlicesNs() throws IOException
    {
        final List<Long> slices = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks.toList())
            {
                try
                {
                    if ("pinmx-progress-".equals(Files.readString(task.resolve("comm")).trim()))
                    {
                        Files.readAllLines(task.resolve("sched")).stream().filter(l -> l.startsWith("se.slice"))
                            .forEach(l -> slices.add(Long.parseLong(l.substring(l.indexOf(':') + 1).trim())));
                    }
                }
                catch (final NoSuchFileException ended)
                {
                    // a thread that ended while listed
                }
            }
        }
        return slices;
    }

    private static Thread thread(final String name)
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> name.equals(t.getName()) && t.isAlive())
            .findFirst().orElse(null);
    }
}
