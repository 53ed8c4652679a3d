package io.pinmx.kerneltests;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The other "host" of {@link TwoHostTest}, run in its own network namespace: opens endpoint 1 on the interface
 * named by its argument, prints {@code ADDRESS <board> <index>}, reads the tester's address from stdin, connects,
 * and echoes every message back (same match info) until one with match info 0 arrives. Exit 0 when done.
 */
public final class EchoPeer
{
    static final int KEY = 0xEC40;
    static final long MAX_BYTES = 4 << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private EchoPeer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final KernelDriver driver = new KernelDriver("echo peer on " + args[0]);
        try (Endpoint endpoint = Endpoint.open(driver, EndpointOptions.builder()
                .driverConfig(KernelDevices.config(1, KernelDriverOptions.defaults().withInterface(args[0])))
                .applicationKey(KEY).build());
             Arena arena = Arena.ofShared())
        {
            System.out.println("ADDRESS " + endpoint.address().board() + " " + endpoint.address().endpointIndex());
            System.out.flush();
            final String[] tester = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))
                .readLine().split(" ");
            final Partner partner = endpoint.connect(
                new EndpointAddress(BoardAddress.parse(tester[0]), Integer.parseInt(tester[1]), 0), KEY, TIMEOUT);
            final MemorySegment buffer = arena.allocate(MAX_BYTES);
            while (true)
            {
                final Request recv = endpoint.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, buffer);
                final Status got = recv.awaitOrThrow(TIMEOUT);
                final long match = got.matchInfo();
                final long length = got.bytesTransferred();
                recv.release();
                if (match == 0)
                {
                    break;
                }
                endpoint.send(partner, match, buffer.asSlice(0, length), TIMEOUT);
            }
        }
    }
}
