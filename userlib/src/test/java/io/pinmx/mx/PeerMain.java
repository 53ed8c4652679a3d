package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.user.UserDriverOptions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The other process of the two-process tests: opens an endpoint over the user-space driver,
 * prints its address, then obeys one command per stdin line and answers on stdout.
 * <p>
 * Arguments: endpoint index, application key, same-host path (true/false), loss fraction
 * (both directions), resend timeout in ms, max resends.
 */
public final class PeerMain
{
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final Endpoint endpoint;
    private final Arena arena = Arena.ofShared();
    private final List<Request> sends = new ArrayList<>();
    private final List<Partner> partners = new ArrayList<>();

    private PeerMain(final Endpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    public static void main(final String[] args) throws Exception
    {
        final int index = Integer.parseInt(args[0]);
        final int key = Integer.parseInt(args[1]);
        final boolean sameHost = Boolean.parseBoolean(args[2]);
        final double loss = Double.parseDouble(args[3]);
        final long resendTimeoutMs = Long.parseLong(args[4]);
        final int maxResends = Integer.parseInt(args[5]);
        final UserDriverOptions driverOptions = UserDriverOptions.defaults()
            .withSameHost(sameHost)
            .withLoss(loss, loss, 1000 + index);
        final Endpoint endpoint = Endpoint.open(new io.pinmx.pin.user.UserDriver(),
            TestEndpoints.options(index, key, driverOptions)
                .resendTimeoutNs(resendTimeoutMs * 1_000_000L)
                .maxResends(maxResends)
                .build());
        final EndpointAddress address = endpoint.address();
        say("ADDRESS " + address.board() + " " + address.endpointIndex());
        new PeerMain(endpoint).serve();
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    private void serve() throws Exception
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while (null != (line = in.readLine()))
        {
            final String[] w = line.trim().split(" ");
            try
            {
                switch (w[0])
                {
                    case "CONNECT" -> connect(w);
                    case "SEND" -> send(w);
                    case "WAIT_SENDS" -> waitSends();
                    case "ECHO" -> echo(Integer.parseInt(w[1]));
                    case "RECV" -> recv(w);
                    case "RECV_FROM" -> recvFrom(w);
                    case "STREAM" -> stream(w);
                    case "STATS" -> say("STATS resent " + endpoint.counters().resentFrames() + " lossTx " +
                        endpoint.counters().driver().get(Counter.DROPPED_LOSS_INJECTED_TX) + " lossRx " +
                        endpoint.counters().driver().get(Counter.DROPPED_LOSS_INJECTED_RX));
                    case "EXIT" ->
                    {
                        endpoint.close();
                        say("BYE");
                        return;
                    }
                    default -> say("ERROR unknown command " + line);
                }
            }
            catch (final RuntimeException ex)
            {
                say("ERROR " + ex.getMessage().replace('\n', ' '));
            }
        }
    }

    private void connect(final String[] w)
    {
        final EndpointAddress remote = new EndpointAddress(BoardAddress.parse(w[1]), Integer.parseInt(w[2]), 0);
        final Partner p = endpoint.connect(remote, Integer.parseInt(w[3]), Duration.ofSeconds(10));
        partners.add(p);
        say("CONNECTED " + (partners.size() - 1));
    }

    /** SEND partnerSlot matchHex size seed eager|sync segments */
    private void send(final String[] w)
    {
        final Partner p = partners.get(Integer.parseInt(w[1]));
        final long match = Long.parseUnsignedLong(w[2], 16);
        final long size = Long.parseLong(w[3]);
        final long seed = Long.parseLong(w[4]);
        final boolean sync = "sync".equals(w[5]);
        final int count = Integer.parseInt(w[6]);
        final MemorySegment data = arena.allocate(Math.max(1, size)).asSlice(0, size);
        Patterns.fill(data, seed);
        final Request r;
        if (1 == count)
        {
            r = sync ? endpoint.issend(p, match, data) : endpoint.isend(p, match, data);
        }
        else
        {
            final MemorySegment[] vector = split(data, count);
            r = sync ? endpoint.issend(p, match, vector, count) : endpoint.isend(p, match, vector, count);
        }
        sends.add(r);
        say("POSTED");
    }

    /** Splits into count pieces of uneven sizes, some empty. */
    static MemorySegment[] split(final MemorySegment data, final int count)
    {
        final MemorySegment[] vector = new MemorySegment[count];
        final long size = data.byteSize();
        long at = 0;
        for (int i = 0; i < count; i++)
        {
            final long remaining = size - at;
            final long piece = i == count - 1 ? remaining : Math.min(remaining, (remaining / (count - i)) * (i % 3));
            vector[i] = data.asSlice(at, piece);
            at += piece;
        }
        return vector;
    }

    private void waitSends()
    {
        final StringBuilder states = new StringBuilder();
        for (final Request r : sends)
        {
            r.await(TIMEOUT);
            final Status s = r.status();
            states.append(' ').append(s.isError() ? "FAILED" : r.state().name());
            if (s.isError())
            {
                say("SEND_ERROR " + s.error());
            }
            r.release();
        }
        sends.clear();
        say("SENDS" + states);
    }

    /** Receives count messages from anyone and sends each back to its source with the same match info. */
    private void echo(final int count)
    {
        final MemorySegment buffer = arena.allocate(64L * 1024 * 1024 + 1);
        final Status status = new Status();
        for (int i = 0; i < count; i++)
        {
            endpoint.recv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, buffer, status, TIMEOUT);
            final Partner back = endpoint.partner(status.source());
            endpoint.send(back, status.matchInfo(), buffer.asSlice(0, status.bytesTransferred()), TIMEOUT);
        }
        say("ECHO_DONE " + count);
    }

    /** RECV matchHex maskHex capacity: one blocking receive, answered with its status and checksum. */
    private void recv(final String[] w)
    {
        final long capacity = Long.parseLong(w[3]);
        final MemorySegment buffer = arena.allocate(Math.max(1, capacity)).asSlice(0, capacity);
        final Status s = new Status();
        endpoint.recv(MatchInfo.ANY_SOURCE, Long.parseUnsignedLong(w[1], 16), Long.parseUnsignedLong(w[2], 16),
            buffer, s, TIMEOUT);
        say("RECEIVED " + Long.toHexString(s.matchInfo()) + " " + s.messageLength() + " " + s.bytesTransferred() + " " +
            s.truncated() + " " + Patterns.crc(buffer, s.bytesTransferred()));
    }

    /**
     * RECV_FROM partnerSlot matchHex capacity: one blocking receive naming the partner, answered with
     * RECEIVED_FROM and its match info, or RECV_FAILED and the error (a failure is this command's answer,
     * not an ERROR).
     */
    private void recvFrom(final String[] w)
    {
        final Partner p = partners.get(Integer.parseInt(w[1]));
        final long capacity = Long.parseLong(w[3]);
        final Request r = endpoint.irecv(p.id(), Long.parseUnsignedLong(w[2], 16), MatchInfo.MASK_ALL,
            arena.allocate(Math.max(1, capacity)).asSlice(0, capacity));
        if (!r.await(TIMEOUT))
        {
            say("RECV_TIMEOUT after " + TIMEOUT);
            return;
        }
        final Status s = r.status();
        say(s.isError() ? "RECV_FAILED " + s.error().replace('\n', ' ') : "RECEIVED_FROM " + Long.toHexString(s.matchInfo()));
        r.release();
    }

    /** STREAM partnerSlot count: sends messages of mixed sizes, match info i, contents seeded by i. */
    private void stream(final String[] w)
    {
        final Partner p = partners.get(Integer.parseInt(w[1]));
        final int count = Integer.parseInt(w[2]);
        final int window = 64;
        final Request[] inFlight = new Request[window];
        final MemorySegment[] buffers = new MemorySegment[window];
        for (int i = 0; i < count; i++)
        {
            final int slot = i % window;
            if (null != inFlight[slot])
            {
                inFlight[slot].awaitOrThrow(TIMEOUT);
                inFlight[slot].release();
            }
            final int size = Patterns.mixedSize(i);
            if (null == buffers[slot] || buffers[slot].byteSize() < size)
            {
                buffers[slot] = arena.allocate(Math.max(size, 64 * 1024));
            }
            final MemorySegment data = buffers[slot].asSlice(0, size);
            Patterns.fill(data, i);
            inFlight[slot] = endpoint.isend(p, i, data);
        }
        for (final Request r : inFlight)
        {
            if (null != r)
            {
                r.awaitOrThrow(TIMEOUT);
                r.release();
            }
        }
        say("STREAM_DONE " + count);
    }
}
