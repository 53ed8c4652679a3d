package io.pinmx.bench;

import io.pinmx.job.JobEndpoint;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PinningPingPongTest
{
    @Test
    void defaultsAreTheRendezvousSizesThreeRoundsAndPullsOnTheWire()
    {
        final PinningPingPong.Arguments arguments = PinningPingPong.Arguments.parse(new String[0]);

        assertArrayEquals(new int[] {1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22}, arguments.sizes());
        assertEquals(3, arguments.rounds());
        assertArrayEquals(new boolean[] {true}, arguments.pullsOnWire());
    }

    @Test
    void optionsAreParsedAndBadOnesNamed()
    {
        final PinningPingPong.Arguments arguments = PinningPingPong.Arguments.parse(
            new String[] {"-rounds", "5", "-pulls", "wire,copy", "-msglog", "20:21", "-iter", "100,16"});

        assertArrayEquals(new int[] {1 << 20, 1 << 21}, arguments.sizes());
        assertEquals(5, arguments.rounds());
        assertArrayEquals(new boolean[] {true, false}, arguments.pullsOnWire());
        assertEquals(16, arguments.bench().repetitions().forSize(1 << 20));
        assertEquals("-pulls both: expected wire, copy or wire,copy", assertThrows(IllegalArgumentException.class,
            () -> PinningPingPong.Arguments.parse(new String[] {"-pulls", "both"})).getMessage());
        assertEquals("-rounds 0: need at least 1", assertThrows(IllegalArgumentException.class,
            () -> PinningPingPong.Arguments.parse(new String[] {"-rounds", "0"})).getMessage());
    }

    @Test
    void refusesToRunWithoutTheKernelDriver()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();

        final int status = PinningPingPong.run(new String[0], Map.of(JobEndpoint.DRIVER_VARIABLE, "user"),
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(BenchmarkRun.EXIT_USAGE, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("needs the kernel driver"));
    }

    @Test
    void peerTimeoutComesFromTheEnvironmentInMilliseconds()
    {
        assertEquals(5000, JobEndpoint.peerTimeoutMs(Map.of()));
        assertEquals(60_000, JobEndpoint.peerTimeoutMs(Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, "60000")));
        assertEquals("PINMX_PEER_TIMEOUT_MS=0: expected milliseconds, 1..2147483647",
            assertThrows(IllegalArgumentException.class,
                () -> JobEndpoint.peerTimeoutMs(Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, "0"))).getMessage());
    }
}
