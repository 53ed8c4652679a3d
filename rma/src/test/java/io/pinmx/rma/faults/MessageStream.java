package io.pinmx.rma.faults;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Two-sided traffic between the two ranks of a job on an endpoint of its own (beside rma's), over UDP at the
 * rank's address: each rank sends the other a stream of messages of every size class (match info = index, contents
 * seeded by sender and index) while a second thread receives the other's stream and checks that each message comes
 * exactly once, in order, byte-exact. The first failure of either thread is kept and rethrown by {@link #finish}.
 */
final class MessageStream implements AutoCloseable
{
    /** Apart from JobEndpoint's index (the rank), so the two endpoints of a rank never share one. */
    private static final int ENDPOINT_INDEX_BASE = 200;
    private static final int APPLICATION_KEY = 0x5EED;
    private static final long RESEND_TIMEOUT_NS = 20_000_000L;
    private static final int WINDOW_MESSAGES = 32;
    private static final int MAX_MESSAGE_BYTES = 256 * 1024;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private final Endpoint endpoint;
    private final Partner partner;
    private final int rank;
    private final Duration operationTimeout;
    private final Arena arena = Arena.ofShared();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Thread sender;
    private Thread receiver;
    private final Object progress = new Object();
    private volatile int received;

    private MessageStream(final Endpoint endpoint, final Partner partner, final int rank, final Duration timeout)
    {
        this.endpoint = endpoint;
        this.partner = partner;
        this.rank = rank;
        this.operationTimeout = timeout;
    }

    /** Collective over the job's two ranks: opens this rank's stream endpoint and connects it to the other's. */
    static MessageStream open(final Job job, final Map<String, String> env) throws UnknownHostException
    {
        final long peerTimeoutMs = JobEndpoint.peerTimeoutMs(env);
        final InetAddress bind = InetAddress.getByName(env.get("PINMX_ADDRESS"));
        final Endpoint endpoint = Endpoint.open(new UserDriver(), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder()
                .boardIndex(0)
                .endpointIndex(ENDPOINT_INDEX_BASE + job.rank())
                .options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(false).withBind(bind, 0))
                .build())
            .applicationKey(APPLICATION_KEY)
            .resendTimeoutNs(RESEND_TIMEOUT_NS)
            .maxResends((int)(peerTimeoutMs * 1_000_000L / RESEND_TIMEOUT_NS))
            .build());
        final EndpointAddress local = endpoint.address();
        final byte[] mine = (local.board() + " " + local.endpointIndex()).getBytes(StandardCharsets.US_ASCII);
        final String[] theirs = new String(job.allGather(mine).get(1 - job.rank()), StandardCharsets.US_ASCII).split(" ");
        final Partner partner = endpoint.connect(
            new EndpointAddress(BoardAddress.parse(theirs[0]), Integer.parseInt(theirs[1]), 0), APPLICATION_KEY,
            CONNECT_TIMEOUT);
        job.barrier();
        return new MessageStream(endpoint, partner, job.rank(), Duration.ofMillis(peerTimeoutMs * 4));
    }

    /** Starts sending {@code count} messages and receiving the other rank's {@code count}. */
    void start(final int count)
    {
        sender = Thread.ofPlatform().name("stream-sender").start(() -> guarded(() -> send(count)));
        receiver = Thread.ofPlatform().name("stream-receiver").start(() -> guarded(() -> receive(count)));
    }

    /** @return true once both threads ended (done or failed). */
    boolean done()
    {
        return !sender.isAlive() && !receiver.isAlive();
    }

    /**
     * Waits until at least {@code count} messages were received and checked, both threads ended, or the timeout.
     *
     * @return messages received and checked so far.
     */
    int awaitReceived(final int count, final Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress)
        {
            long left;
            while (received < count && !done() && (left = deadline - System.nanoTime()) > 0)
            {
                progress.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return received;
        }
    }

    /**
     * Waits for both threads and checks that no message came twice.
     *
     * @throws AssertionError naming what went wrong, or when the threads are not done within {@code timeout}.
     */
    void finish(final Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        for (final Thread t : new Thread[] {sender, receiver})
        {
            t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (t.isAlive())
            {
                throw new AssertionError(t.getName() + " not done within " + timeout + ": " + received + " received");
            }
        }
        rethrow();
    }

    /** After the other rank finished sending: nothing more may be waiting (a duplicate delivered twice). */
    void checkNothingLeft()
    {
        final Status s = new Status();
        if (endpoint.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, s))
        {
            throw new AssertionError("rank " + rank + ": message " + s.matchInfo() + " arrived after the stream's end");
        }
    }

    /** Sends one message to the other rank and returns without waiting for it. */
    Request sendOne(final long matchInfo, final MemorySegment data)
    {
        return endpoint.isend(partner, matchInfo, data);
    }

    /** Posts a receive of one message from the other rank. */
    Request receiveOne(final MemorySegment into)
    {
        return endpoint.irecv(partner.id(), 0, MatchInfo.MASK_ANY, into);
    }

    /** @return the endpoint's counters: its resends, its stale or malformed frames dropped, the driver's drops. */
    String counters()
    {
        long driverDrops = 0;
        for (final Counter c : Counter.values())
        {
            if (c.name().startsWith("DROPPED_"))
            {
                driverDrops += endpoint.counters().driver().get(c);
            }
        }
        return "resent=" + endpoint.counters().resentFrames() + " stale=" + endpoint.counters().droppedFrames() + " driverDropped=" +
            driverDrops + " pullRequestsResent=" + endpoint.counters().driver().get(Counter.PULL_REQUESTS_RESENT) +
            " pullDuplicates=" + endpoint.counters().driver().get(Counter.PULL_DUPLICATE_FRAMES) + " badCrc=" +
            endpoint.counters().driver().get(Counter.DROPPED_BAD_CRC);
    }

    private void send(final int count)
    {
        final Request[] inFlight = new Request[WINDOW_MESSAGES];
        final MemorySegment[] buffers = new MemorySegment[WINDOW_MESSAGES];
        for (int slot = 0; slot < WINDOW_MESSAGES; slot++)
        {
            buffers[slot] = arena.allocate(MAX_MESSAGE_BYTES);
        }
        for (int i = 0; i < count && null == failure.get(); i++)
        {
            final int slot = i % WINDOW_MESSAGES;
            complete(inFlight[slot]);
            final MemorySegment data = buffers[slot].asSlice(0, Payloads.messageSize(i));
            Payloads.fill(data, seed(rank, i));
            inFlight[slot] = endpoint.isend(partner, i, data);
        }
        for (final Request r : inFlight)
        {
            complete(r);
        }
    }

    private void complete(final Request r)
    {
        if (null != r)
        {
            r.awaitOrThrow(operationTimeout);
            r.release();
        }
    }

    private void receive(final int count)
    {
        final MemorySegment in = arena.allocate(MAX_MESSAGE_BYTES);
        final Status s = new Status();
        final int from = 1 - rank;
        for (int i = 0; i < count && null == failure.get(); i++)
        {
            endpoint.recv(partner.id(), 0, MatchInfo.MASK_ANY, in, s, operationTimeout);
            final int size = Payloads.messageSize(i);
            if (s.matchInfo() != i || s.messageLength() != size || s.bytesTransferred() != size)
            {
                throw new AssertionError("rank " + rank + ": expected message " + i + " of " + size + " B from rank " +
                    from + ", got match " + s.matchInfo() + " of " + s.messageLength() + " B (" + s.bytesTransferred() +
                    " transferred)");
            }
            final long mismatch = Payloads.firstMismatch(in.asSlice(0, size), seed(from, i));
            if (mismatch >= 0)
            {
                throw new AssertionError("rank " + rank + ": message " + i + " from rank " + from + " (" + size +
                    " B) differs at byte " + mismatch);
            }
            synchronized (progress)
            {
                received = i + 1;
                progress.notifyAll();
            }
        }
    }

    private void guarded(final Runnable body)
    {
        try
        {
            body.run();
        }
        catch (final Throwable t)
        {
            failure.compareAndSet(null, t);
        }
        finally
        {
            synchronized (progress)
            {
                progress.notifyAll();
            }
        }
    }

    private void rethrow()
    {
        final Throwable t = failure.get();
        if (null != t)
        {
            throw new AssertionError("rank " + rank + " two-sided stream: " + t, t);
        }
    }

    private static long seed(final int sender, final int index)
    {
        return (long)sender << 32 | index;
    }

    @Override
    public void close()
    {
        endpoint.close();
        arena.close();
    }
}
