package io.pinmx.mpj.niodev;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** NiodevJob's command line: rank prefixes and the port server's address, and the refusals of bad ones. */
class JobOptionsTest
{
    @Test
    void withoutOptionsEveryRankStartsPlainAndThePortServerIsOnLoopback()
    {
        final JobOptions options = JobOptions.parse(new String[] {"-np", "2", "Main", "S"});
        assertEquals(2, options.ranks());
        assertEquals("Main", options.mainClass());
        assertEquals(List.of("S"), options.programArgs());
        assertEquals(InetAddress.getLoopbackAddress(), options.portServer());
        assertEquals(Map.of(), options.prefixes());
        assertEquals(Map.of(), options.jvmOptions());
    }

    @Test
    void jvmOptionsAreSplitAtWhiteSpaceAndKeptPerRank()
    {
        final JobOptions options = JobOptions.parse(new String[] {"--rank-jvm-options", "0",
            "-XX:AOTMode=record  -XX:AOTConfiguration=/tmp/a.training", "--rank-prefix", "0", "taskset -c 0",
            "-np", "2", "Main"});
        assertEquals(Map.of(0, List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=/tmp/a.training")),
            options.jvmOptions());
        assertEquals(Map.of(0, List.of("taskset", "-c", "0")), options.prefixes());
    }

    @Test
    void badJvmOptionsAreRefusedNamingTheOption()
    {
        assertRefused("--rank-jvm-options '2': expected a rank of 0..1",
            "--rank-jvm-options", "2", "-Xint", "-np", "2", "Main");
        assertRefused("--rank-jvm-options 0: the options are empty", "--rank-jvm-options", "0", "", "-np", "2", "Main");
        assertRefused("--rank-jvm-options 0 is given twice",
            "--rank-jvm-options", "0", "-Xint", "--rank-jvm-options", "0", "-Xmx1g", "-np", "2", "Main");
        assertRefused("--rank-jvm-options needs a rank and options; " + JobOptions.USAGE, "--rank-jvm-options", "0");
    }

    @Test
    void prefixesAreSplitAtWhiteSpaceAndKeptPerRank() throws Exception
    {
        final JobOptions options = JobOptions.parse(new String[] {"--port-server", "10.231.7.1", "--rank-prefix", "1",
            " taskset -c 1  ip netns exec b ", "--rank-prefix", "0", "taskset -c 0", "-np", "2", "Main"});
        assertEquals(InetAddress.getByName("10.231.7.1"), options.portServer());
        assertEquals(Map.of(0, List.of("taskset", "-c", "0"), 1, List.of("taskset", "-c", "1", "ip", "netns", "exec",
            "b")), options.prefixes());
        assertEquals(List.of(), options.programArgs());
    }

    @Test
    void aPrefixForARankOutsideTheJobIsRefused()
    {
        assertRefused("--rank-prefix '2': expected a rank of 0..1",
            "--rank-prefix", "2", "ip netns exec b", "-np", "2", "Main");
        assertRefused("--rank-prefix 'one': expected a rank of 0..1",
            "--rank-prefix", "one", "ip netns exec b", "-np", "2", "Main");
    }

    @Test
    void anEmptyOrRepeatedPrefixIsRefused()
    {
        assertRefused("--rank-prefix 1: the command is empty", "--rank-prefix", "1", " ", "-np", "2", "Main");
        assertRefused("--rank-prefix 1 is given twice",
            "--rank-prefix", "1", "a", "--rank-prefix", "1", "b", "-np", "2", "Main");
    }

    @Test
    void missingValuesAndUnknownOptionsAreRefused()
    {
        assertRefused("--port-server needs an address; " + JobOptions.USAGE, "--port-server");
        assertRefused("--rank-prefix needs a rank and a command; " + JobOptions.USAGE, "--rank-prefix", "1");
        assertRefused("unknown option '--ranks'; " + JobOptions.USAGE, "--ranks", "2", "-np", "2", "Main");
        assertRefused("-np '0': expected a positive number of processes", "-np", "0", "Main");
        assertRefused(JobOptions.USAGE, "-np", "2");
    }

    private static void assertRefused(final String message, final String... args)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(args)).getMessage());
    }
}
