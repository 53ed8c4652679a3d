package io.pinmx.kerneltests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the tests that place a peer in another network namespace share: finding iproute2's {@code ip} (the test is
 * skipped, saying why, without it or without root) and running its commands.
 */
final class NetworkNamespaces
{
    private static final long COMMAND_TIMEOUT_S = 60;

    private NetworkNamespaces()
    {
    }

    /** @return the path of {@code ip}; skips the calling test unless it exists and this JVM runs as root. */
    static String requireIp()
    {
        final String ip = Stream.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip")
            .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
        assumeTrue(null != ip, "needs iproute2's ip for a network namespace and a veth pair");
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        return ip;
    }

    /** Runs a command that must succeed within a minute; fails naming it and its output otherwise. */
    static void run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS), String.join(" ", command) + " hung");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    }
}
