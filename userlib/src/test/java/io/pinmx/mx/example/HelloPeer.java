package io.pinmx.mx.example;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Two processes exchange one message each way over the user-space driver on this host.
 * <pre>
 *   java -cp CLASSPATH io.pinmx.mx.example.HelloPeer listen             # prints: listening on BOARD INDEX
 *   java -cp CLASSPATH io.pinmx.mx.example.HelloPeer send BOARD INDEX   # the line the listener printed
 * </pre>
 */
public final class HelloPeer
{
    private static final int KEY = 0x2A2A;
    private static final long TAG = 42;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    public static void main(final String[] args)
    {
        final boolean listen = args.length == 1 && args[0].equals("listen");
        if (!listen && !(args.length == 3 && args[0].equals("send")))
        {
            System.err.println("usage: HelloPeer listen | HelloPeer send BOARD_ADDRESS ENDPOINT_INDEX");
            System.exit(2);
        }
        final EndpointOptions options = EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder().boardIndex(0).endpointIndex(listen ? 1 : 2)
                .options(UserDriverOptions.class, UserDriverOptions.defaults()).build())
            .applicationKey(KEY)
            .build();
        // Buffers are used by the endpoint's progress thread too: shared (or global, or automatic) memory.
        try (Endpoint ep = Endpoint.open(new UserDriver(), options); Arena arena = Arena.ofShared())
        {
            final MemorySegment buffer = arena.allocate(256);
            final Status status = new Status();
            if (listen)
            {
                // The peer learns where we are from this line (a job launcher would pass it on).
                System.out.println("listening on " + ep.address().board() + " " + ep.address().endpointIndex());
                ep.recv(MatchInfo.ANY_SOURCE, TAG, MatchInfo.MASK_ALL, buffer, status, TIMEOUT);
                System.out.println("received '" + text(buffer, status) + "'");
                // The sender connected to us, so it is a partner we can answer.
                final Partner sender = ep.partner(status.source());
                ep.send(sender, TAG, bytes(arena, "hello back"), TIMEOUT);
            }
            else
            {
                final EndpointAddress listener =
                    new EndpointAddress(BoardAddress.parse(args[1]), Integer.parseInt(args[2]), 0);
                final Partner peer = ep.connect(listener, KEY, TIMEOUT);
                final Request reply = ep.irecv(peer.id(), TAG, MatchInfo.MASK_ALL, buffer);
                ep.send(peer, TAG, bytes(arena, "hello"), TIMEOUT);
                final Status got = reply.awaitOrThrow(TIMEOUT);
                System.out.println("received '" + text(buffer, got) + "'");
                reply.release();
            }
        }
    }

    private static MemorySegment bytes(final Arena arena, final String text)
    {
        return arena.allocateFrom(text, StandardCharsets.UTF_8).asSlice(0, text.length());
    }

    private static String text(final MemorySegment buffer, final Status status)
    {
        return new String(buffer.asSlice(0, status.bytesTransferred()).toArray(ValueLayout.JAVA_BYTE),
            StandardCharsets.UTF_8);
    }
}
