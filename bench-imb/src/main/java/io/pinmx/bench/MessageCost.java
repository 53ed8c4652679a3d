package io.pinmx.bench;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.pinmx.job.ProgramArguments;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The CPU work of one small message with no second core involved: both ends of a ping-pong in one thread of one
 * process, so no cache line moves between cores and nobody waits for anybody. pinmx: two user-driver endpoints on
 * loopback (same-host shared-memory ring, caller-driven progress), each message a posted receive, a send, the
 * progress rounds until both are done and their release; Aeron IPC: two exclusive publications and subscriptions of
 * an embedded media driver, each message an offer and a poll that copies it out. Also the cost of a poll that finds
 * nothing. A half round trip between two processes is this work on the path plus the transfer of the message's
 * cache lines between the cores, which both pay alike.
 * <p>
 * Run: {@code bin/pinmx-run -np 1 MessageCost [MESSAGE_BYTES]} (default 8; at most {@value #MAX_MESSAGE_BYTES}).
 */
public final class MessageCost
{
    static final int MAX_MESSAGE_BYTES = 32;
    private static final int MESSAGES_PER_LOOP = 500_000;
    private static final int LOOPS = 7;
    private static final int WARM_UP_LOOPS = 3;
    private static final int EMPTY_POLLS_PER_LOOP = 2_000_000;
    private static final int APPLICATION_KEY = 0x4d43;
    private static final long MATCH_INFO = 1;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The provider whose same-host message cost is measured. */
    private static final String USER_DRIVER = "user";
    private static final String AERON_CHANNEL = "aeron:ipc?term-length=64m|mtu=65504";

    private MessageCost()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, "usage: bin/pinmx-run -np 1 MessageCost [MESSAGE_BYTES]   (default 8, at most " +
            MAX_MESSAGE_BYTES + ")\n  one thread plays both ends of a ping-pong, pinmx then Aeron IPC; no environment\n" +
            "exit status: 0 done, 1 the run failed, 2 bad arguments\n"))
        {
            return;
        }
        final int bytes;
        try
        {
            bytes = messageBytes(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println(ex.getMessage() + " (MessageCost --help lists the arguments)");
            System.exit(BenchmarkRun.EXIT_USAGE);
            return;
        }
        final double[] pinmx = pinmx(bytes);
        final double[] aeron = aeron(bytes);
        System.out.println("# one thread plays both ends; " + bytes + " B messages; median of " + LOOPS + " loops of " +
            MESSAGES_PER_LOOP + " messages each way (" + WARM_UP_LOOPS + " loops of warm-up before)");
        System.out.println(String.format(Locale.ROOT, "pinmx: %.1f ns per message, %.1f ns per empty poll", pinmx[0],
            pinmx[1]));
        System.out.println(String.format(Locale.ROOT, "aeron: %.1f ns per message, %.1f ns per empty poll", aeron[0],
            aeron[1]));
        System.out.println(String.format(Locale.ROOT, "ratio per message pinmx/aeron = %.1f, per empty poll = %.1f",
            pinmx[0] / aeron[0], pinmx[1] / aeron[1]));
    }

    /**
     * @return the message size the arguments give, default 8.
     * @throws IllegalArgumentException naming the argument that is wrong.
     */
    static int messageBytes(final String[] args)
    {
        if (args.length > 1)
        {
            throw new IllegalArgumentException("MessageCost: unexpected argument '" + args[1] + "'");
        }
        return args.length > 0 ? parseBytes(args[0]) : 8;
    }

    private static int parseBytes(final String text)
    {
        final int bytes;
        try
        {
            bytes = Integer.parseInt(text);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("MessageCost: MESSAGE_BYTES '" + text + "' is not a number");
        }
        if (bytes < 0 || bytes > MAX_MESSAGE_BYTES)
        {
            throw new IllegalArgumentException("MessageCost: MESSAGE_BYTES " + bytes + " is not in 0.." +
                MAX_MESSAGE_BYTES);
        }
        return bytes;
    }

    /** @return ns per message (one direction) and per empty poll. */
    private static double[] pinmx(final int bytes)
    {
        try (Endpoint a = openEndpoint(0); Endpoint b = openEndpoint(1); Arena arena = Arena.ofShared())
        {
            final Partner aToB = connect(a, b);
            final Partner bToA = connect(b, a);
            final MemorySegment out = arena.allocate(bytes + 1L).asSlice(0, bytes);
            final MemorySegment in = arena.allocate(bytes + 1L).asSlice(0, bytes);
            final double perMessageNs = median(() ->
            {
                for (int i = 0; i < MESSAGES_PER_LOOP; i++)
                {
                    oneWay(b, bToA, a, aToB, out, in);
                    oneWay(a, aToB, b, bToA, out, in);
                }
            }) / (2.0 * MESSAGES_PER_LOOP);
            final Request pending = b.irecv(bToA.id(), MATCH_INFO + 1, MatchInfo.MASK_ALL, in);
            final double emptyPollNs = median(() ->
            {
                for (int i = 0; i < EMPTY_POLLS_PER_LOOP; i++)
                {
                    pending.test();
                }
            }) / EMPTY_POLLS_PER_LOOP;
            pending.cancel();
            pending.release();
            return new double[] {perMessageNs, emptyPollNs};
        }
    }

    private static void oneWay(
        final Endpoint receiver, final Partner fromSender, final Endpoint sender, final Partner toReceiver,
        final MemorySegment out, final MemorySegment in)
    {
        final Request received = receiver.irecv(fromSender.id(), MATCH_INFO, MatchInfo.MASK_ALL, in);
        final Request sent = sender.isend(toReceiver, MATCH_INFO, out);
        while (!received.test())
        {
            sent.test();
        }
        while (!sent.test())
        {
            received.test();
        }
        received.release();
        sent.release();
    }

    private static Endpoint openEndpoint(final int endpointIndex)
    {
        return Endpoint.open(DriverSelector.select(USER_DRIVER, "MessageCost"), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder()
                .boardIndex(0)
                .endpointIndex(endpointIndex)
                .option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
                .option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false)
                .build())
            .applicationKey(APPLICATION_KEY)
            .progressMode(ProgressMode.CALLER)
            .build());
    }

    /** Connects {@code from} to {@code to}; this thread makes {@code to}'s progress meanwhile (caller-driven). */
    private static Partner connect(final Endpoint from, final Endpoint to)
    {
        final CompletableFuture<Partner> connected =
            CompletableFuture.supplyAsync(() -> from.connect(to.address(), APPLICATION_KEY, CONNECT_TIMEOUT));
        final Status ignored = new Status();
        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT.toNanos() + 1_000_000_000L;
        while (!connected.isDone() && System.nanoTime() - deadlineNs < 0)
        {
            to.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, ignored);
        }
        return connected.join();
    }

    /** @return ns per message (one direction) and per empty poll. */
    private static double[] aeron(final int bytes)
    {
        final String directory = "/dev/shm/pinmx-message-cost-" + ProcessHandle.current().pid();
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(directory)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
             Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
             ExclusivePublication aToB = aeron.addExclusivePublication(AERON_CHANNEL, 1);
             ExclusivePublication bToA = aeron.addExclusivePublication(AERON_CHANNEL, 2);
             Subscription atB = aeron.addSubscription(AERON_CHANNEL, 1);
             Subscription atA = aeron.addSubscription(AERON_CHANNEL, 2);
             Arena arena = Arena.ofConfined())
        {
            final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
            while (!(aToB.isConnected() && bToA.isConnected() && atB.isConnected() && atA.isConnected()))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("MessageCost: Aeron publications not connected after " +
                        CONNECT_TIMEOUT.toSeconds() + " s");
                }
                Thread.onSpinWait();
            }
            final UnsafeBuffer out = new UnsafeBuffer(arena.allocate(MAX_MESSAGE_BYTES).address(), bytes);
            final UnsafeBuffer in = new UnsafeBuffer(arena.allocate(MAX_MESSAGE_BYTES).address(), MAX_MESSAGE_BYTES);
            final FragmentHandler copyOut = (buffer, offset, length, header) -> buffer.getBytes(offset, in, 0, length);
            final double perMessageNs = median(() ->
            {
                for (int i = 0; i < MESSAGES_PER_LOOP; i++)
                {
                    oneWay(aToB, atB, out, bytes, copyOut);
                    oneWay(bToA, atA, out, bytes, copyOut);
                }
            }) / (2.0 * MESSAGES_PER_LOOP);
            final double emptyPollNs = median(() ->
            {
                for (int i = 0; i < EMPTY_POLLS_PER_LOOP; i++)
                {
                    atB.poll(copyOut, 1);
                }
            }) / EMPTY_POLLS_PER_LOOP;
            return new double[] {perMessageNs, emptyPollNs};
        }
    }

    private static void oneWay(
        final ExclusivePublication publication, final Subscription subscription, final UnsafeBuffer out,
        final int bytes, final FragmentHandler copyOut)
    {
        while (publication.offer(out, 0, bytes) < 0)
        {
            Thread.onSpinWait();
        }
        while (0 == subscription.poll(copyOut, 1))
        {
            Thread.onSpinWait();
        }
    }

    /** @return the median ns of {@link #LOOPS} runs of the loop, after {@link #WARM_UP_LOOPS} untimed ones. */
    private static double median(final Runnable loop)
    {
        for (int i = 0; i < WARM_UP_LOOPS; i++)
        {
            loop.run();
        }
        final long[] ns = new long[LOOPS];
        for (int i = 0; i < LOOPS; i++)
        {
            final long startNs = System.nanoTime();
            loop.run();
            ns[i] = System.nanoTime() - startNs;
        }
        Arrays.sort(ns);
        return ns[LOOPS / 2];
    }
}
