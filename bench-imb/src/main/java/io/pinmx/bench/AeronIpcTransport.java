package io.pinmx.bench;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.pinmx.job.Job;
import io.pinmx.job.RankBinding;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The best Java messaging peer on one host, as a baseline: Aeron IPC. One exclusive publication per ordered pair
 * of ranks on {@code aeron:ipc} (stream 1 + from * size + to), one subscription per peer, all through a media
 * driver that rank 0 embeds (its directory under /dev/shm, removed at close). The driver only sets streams up;
 * messages go through the shared log buffers, copied in by {@code offer} and out of them into the receive buffer
 * by the fragment handler, so every message is copied twice, as pinmx's eager messages are. The driver's one
 * thread sleeps 1 ms when idle, so it takes no core from the ranks; the benchmark thread busy-polls with the
 * pinmx transport's idle strategy and CPU binding.
 */
public final class AeronIpcTransport implements Transport
{
    private static final String CHANNEL = "aeron:ipc?term-length=64m|mtu=65504";
    private static final long CONNECT_TIMEOUT_NS = 30_000_000_000L;
    private static final int FRAGMENTS_PER_POLL = 64;
    private static final int MAX_POSTED = 256;
    private static final int NO_RECEIVE = -1;

    private final int rank;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final ExclusivePublication[] publications;
    private final Subscription[] subscriptions;
    private final RankBinding binding;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
    private final UnsafeBuffer sendView = new UnsafeBuffer(0, 0);
    private final MessageAssembler assembler = new MessageAssembler();
    private final UnsafeBuffer[] postedViews = new UnsafeBuffer[MAX_POSTED];
    private final int[] postedPeer = new int[MAX_POSTED];
    private final int[] postedBytes = new int[MAX_POSTED];
    private final boolean[] postedIsSend = new boolean[MAX_POSTED];
    private final boolean[] postedDone = new boolean[MAX_POSTED];
    private int postedCount;

    private AeronIpcTransport(
        final Job job, final MediaDriver driver, final Aeron aeron, final ExclusivePublication[] publications,
        final Subscription[] subscriptions, final RankBinding binding)
    {
        this.rank = job.rank();
        this.driver = driver;
        this.aeron = aeron;
        this.publications = publications;
        this.subscriptions = subscriptions;
        this.binding = binding;
        for (int i = 0; i < MAX_POSTED; i++)
        {
            postedViews[i] = new UnsafeBuffer(0, 0);
        }
    }

    /**
     * @throws IllegalArgumentException when the ranks are not on one host (they cannot see rank 0's driver).
     */
    public static AeronIpcTransport open(final Job job, final Map<String, String> env)
    {
        MediaDriver driver = null;
        Aeron aeron = null;
        try
        {
            final String proposed = 0 == job.rank() ? launchDirectory() : "";
            if (0 == job.rank())
            {
                driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                    .aeronDirectoryName(proposed)
                    .threadingMode(ThreadingMode.SHARED)
                    .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true));
            }
            final String directory = new String(
                job.broadcast(0, proposed.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
            if (!new File(directory, "cnc.dat").isFile())
            {
                throw new IllegalArgumentException("--transport aeron: Aeron IPC needs every rank on one host; rank " +
                    job.rank() + " cannot see rank 0's media driver at " + directory);
            }
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(directory));
            final ExclusivePublication[] publications = new ExclusivePublication[job.size()];
            final Subscription[] subscriptions = new Subscription[job.size()];
            for (int peer = 0; peer < job.size(); peer++)
            {
                if (peer != job.rank())
                {
                    publications[peer] = aeron.addExclusivePublication(CHANNEL, streamId(job, job.rank(), peer));
                    subscriptions[peer] = aeron.addSubscription(CHANNEL, streamId(job, peer, job.rank()));
                }
            }
            awaitConnected(job, publications, subscriptions);
            job.barrier();
            return new AeronIpcTransport(job, driver, aeron, publications, subscriptions, RankBinding.bind(job, env));
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(aeron);
            closeQuietly(driver);
            throw ex;
        }
    }

    private static String launchDirectory()
    {
        return "/dev/shm/pinmx-aeron-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    }

    private static int streamId(final Job job, final int from, final int to)
    {
        return 1 + from * job.size() + to;
    }

    private static void awaitConnected(
        final Job job, final ExclusivePublication[] publications, final Subscription[] subscriptions)
    {
        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
        for (int peer = 0; peer < job.size(); peer++)
        {
            while (null != publications[peer] &&
                (!publications[peer].isConnected() || !subscriptions[peer].isConnected()))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("aeron transport: rank " + job.rank() + " not connected to rank " +
                        peer + " after " + CONNECT_TIMEOUT_NS / 1_000_000_000L + " s");
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public String name()
    {
        return "aeron";
    }

    @Override
    public String progress()
    {
        return "aeron: Aeron IPC (" + CHANNEL + ", exclusive publications, embedded media driver in rank 0 whose " +
            "one thread sleeps 1 ms when idle); the benchmark thread busy-polls its publications and subscriptions, " +
            "1 thread per process, never parking, yielding the core every " +
            BackoffThenBlockIdleStrategy.POLLS_PER_YIELD + " empty polls (as pinmx); each message copied into " +
            "the log buffer and out into the receive buffer; " + binding.description();
    }

    @Override
    public void send(final int peer, final MemorySegment buffer, final int bytes)
    {
        final ExclusivePublication publication = publication(peer);
        sendView.wrap(buffer.address(), bytes);
        idle.reset();
        while (!offered(publication, peer, sendView, bytes))
        {
            idle.idle();
        }
    }

    @Override
    public void recv(final int peer, final MemorySegment buffer, final int bytes)
    {
        final Subscription subscription = subscription(peer);
        checkFits(buffer, bytes);
        assembler.begin(peer, buffer, bytes);
        idle.reset();
        while (!assembler.done())
        {
            idle.idle(subscription.controlledPoll(assembler, FRAGMENTS_PER_POLL));
        }
        assembler.checkLength(rank);
    }

    @Override
    public void postSend(final int peer, final MemorySegment buffer, final int bytes)
    {
        publication(peer);
        post(peer, buffer, bytes, true);
    }

    @Override
    public void postRecv(final int peer, final MemorySegment buffer, final int bytes)
    {
        subscription(peer);
        checkFits(buffer, bytes);
        post(peer, buffer, bytes, false);
    }

    private void post(final int peer, final MemorySegment buffer, final int bytes, final boolean isSend)
    {
        if (postedCount == MAX_POSTED)
        {
            throw new IllegalStateException("more than " + MAX_POSTED + " operations posted at once");
        }
        final int i = postedCount++;
        postedViews[i].wrap(buffer.address(), bytes);
        postedPeer[i] = peer;
        postedBytes[i] = bytes;
        postedIsSend[i] = isSend;
        postedDone[i] = false;
    }

    /**
     * Offers pending sends in posting order and feeds each peer's messages to its earliest pending receive, until
     * everything posted is done.
     */
    @Override
    public void awaitPosted()
    {
        try
        {
            int remaining = postedCount;
            idle.reset();
            while (remaining > 0)
            {
                int work = 0;
                for (int i = 0; i < postedCount; i++)
                {
                    if (!postedDone[i] && postedIsSend[i] &&
                        offered(publications[postedPeer[i]], postedPeer[i], postedViews[i], postedBytes[i]))
                    {
                        postedDone[i] = true;
                        remaining--;
                        work++;
                    }
                }
                for (int peer = 0; peer < subscriptions.length; peer++)
                {
                    final int i = firstPendingReceive(peer);
                    if (NO_RECEIVE == i)
                    {
                        continue;
                    }
                    if (!assembler.busyWith(peer))
                    {
                        assembler.begin(peer, postedViews[i], postedBytes[i]);
                    }
                    work += subscriptions[peer].controlledPoll(assembler, FRAGMENTS_PER_POLL);
                    if (assembler.done())
                    {
                        assembler.checkLength(rank);
                        postedDone[i] = true;
                        remaining--;
                        work++;
                    }
                }
                idle.idle(work);
            }
        }
        finally
        {
            postedCount = 0;
            assembler.reset();
        }
    }

    private int firstPendingReceive(final int peer)
    {
        for (int i = 0; i < postedCount; i++)
        {
            if (!postedDone[i] && !postedIsSend[i] && postedPeer[i] == peer)
            {
                return i;
            }
        }
        return NO_RECEIVE;
    }

    private boolean offered(final ExclusivePublication publication, final int peer, final DirectBuffer message, final int bytes)
    {
        final long position = publication.offer(message, 0, bytes);
        if (position >= 0)
        {
            return true;
        }
        if (Publication.BACK_PRESSURED == position || Publication.ADMIN_ACTION == position)
        {
            return false;
        }
        throw new IllegalStateException("aeron transport: rank " + rank + " could not send " + bytes + " B to rank " +
            peer + ": " + Publication.errorString(position));
    }

    private void checkFits(final MemorySegment buffer, final int bytes)
    {
        if (bytes < 0 || bytes > buffer.byteSize())
        {
            throw new IllegalArgumentException("aeron transport: " + bytes + " B do not fit a buffer of " +
                buffer.byteSize() + " B");
        }
    }

    private ExclusivePublication publication(final int peer)
    {
        checkPeer(peer);
        return publications[peer];
    }

    private Subscription subscription(final int peer)
    {
        checkPeer(peer);
        return subscriptions[peer];
    }

    private void checkPeer(final int peer)
    {
        if (peer < 0 || peer >= publications.length || null == publications[peer])
        {
            throw new IllegalArgumentException("peer " + peer + " is not another rank of this job of " +
                publications.length);
        }
    }

    @Override
    public void close()
    {
        try
        {
            closeQuietly(aeron);
            closeQuietly(driver);
        }
        finally
        {
            binding.close();
        }
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (null != closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignored)
            {
                // closing on the way out: nothing left to tell
            }
        }
    }

    /**
     * Copies one message's fragments into the receive buffer and stops the poll at its end, leaving later messages
     * in the log for later receives.
     */
    private static final class MessageAssembler implements ControlledFragmentHandler
    {
        private final UnsafeBuffer target = new UnsafeBuffer(0, 0);
        private int peer = NO_RECEIVE;
        private int expectedBytes;
        private int receivedBytes;
        private boolean done;

        void begin(final int peer, final MemorySegment buffer, final int bytes)
        {
            begin(peer, buffer.address(), bytes);
        }

        void begin(final int peer, final UnsafeBuffer buffer, final int bytes)
        {
            begin(peer, buffer.addressOffset(), bytes);
        }

        private void begin(final int peer, final long address, final int bytes)
        {
            target.wrap(address, bytes);
            this.peer = peer;
            expectedBytes = bytes;
            receivedBytes = 0;
            done = false;
        }

        boolean busyWith(final int peer)
        {
            return this.peer == peer && !done;
        }

        boolean done()
        {
            return done;
        }

        void reset()
        {
            peer = NO_RECEIVE;
            done = false;
        }

        void checkLength(final int rank)
        {
            final int from = peer;
            peer = NO_RECEIVE;
            if (receivedBytes != expectedBytes)
            {
                throw new IllegalStateException("aeron transport: rank " + rank + " expected " + expectedBytes +
                    " B and got a message of " + receivedBytes + " B from rank " + from);
            }
        }

        @Override
        public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            if (done)
            {
                return Action.ABORT;
            }
            if (0 != (header.flags() & FrameDescriptor.BEGIN_FRAG_FLAG))
            {
                receivedBytes = 0;
            }
            final int room = Math.max(0, Math.min(length, target.capacity() - receivedBytes));
            target.putBytes(receivedBytes, buffer, offset, room);
            receivedBytes += length;
            if (0 != (header.flags() & FrameDescriptor.END_FRAG_FLAG))
            {
                done = true;
                return Action.BREAK;
            }
            return Action.CONTINUE;
        }
    }
}
