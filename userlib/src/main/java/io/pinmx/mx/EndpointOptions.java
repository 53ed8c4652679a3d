package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.provider.LibcScheduling;
import io.pinmx.pin.provider.ProgressSlice;
import io.pinmx.pin.spi.EndpointConfig;

import java.util.Objects;

/**
 * Everything an {@link Endpoint} is opened with. Immutable; build with {@link #builder()}.
 * Times carry their unit in their names; every default is stated on its setter.
 */
public final class EndpointOptions
{
    final EndpointConfig driverConfig;
    final int applicationKey;
    final ProgressMode progressMode;
    final long callerPollNs;
    final long progressSliceNs;
    final PollIdle callerPollIdle;
    final int tinyMaxBytes;
    final int smallMaxBytes;
    final int mediumFragmentBytes;
    final long rendezvousThresholdBytes;
    final long resendTimeoutNs;
    final int maxResends;
    final long ackDelayNs;
    final long losslessAckDelayNs;
    final int ackEveryFrames;
    final int sendWindowFrames;
    final long keepaliveIntervalNs;
    final long connectResendNs;
    final long pullEndPatienceNs;
    final int unexpectedMaxMessages;
    final long unexpectedMaxBytes;
    final int maxRequests;
    final int regionCacheMaxRegions;
    final long regionCacheMaxBytes;
    final NanoClock clock;

    private EndpointOptions(final Builder b)
    {
        driverConfig = b.driverConfig;
        applicationKey = b.applicationKey;
        progressMode = b.progressMode;
        callerPollNs = b.callerPollNs;
        progressSliceNs = b.progressSliceNs;
        callerPollIdle = b.callerPollIdle;
        tinyMaxBytes = b.tinyMaxBytes;
        smallMaxBytes = b.smallMaxBytes;
        mediumFragmentBytes = b.mediumFragmentBytes;
        rendezvousThresholdBytes = b.rendezvousThresholdBytes;
        resendTimeoutNs = b.resendTimeoutNs;
        maxResends = b.maxResends;
        ackDelayNs = b.ackDelayNs;
        losslessAckDelayNs = b.losslessAckDelayNs;
        ackEveryFrames = b.ackEveryFrames;
        sendWindowFrames = b.sendWindowFrames;
        keepaliveIntervalNs = b.keepaliveIntervalNs;
        connectResendNs = b.connectResendNs;
        pullEndPatienceNs = b.pullEndPatienceNs;
        unexpectedMaxMessages = b.unexpectedMaxMessages;
        unexpectedMaxBytes = b.unexpectedMaxBytes;
        maxRequests = b.maxRequests;
        regionCacheMaxRegions = b.regionCacheMaxRegions;
        regionCacheMaxBytes = b.regionCacheMaxBytes;
        clock = b.clock;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public EndpointConfig driverConfig()
    {
        return driverConfig;
    }

    public int applicationKey()
    {
        return applicationKey;
    }

    /** @return the DEDICATED progress thread's time slice in ns; 0: the kernel's default. */
    public long progressSliceNs()
    {
        return progressSliceNs;
    }

    public ProgressMode progressMode()
    {
        return progressMode;
    }

    /** @return how a waiting API call idles between the tries of its poll phase. */
    public PollIdle callerPollIdle()
    {
        return callerPollIdle;
    }

    public long rendezvousThresholdBytes()
    {
        return rendezvousThresholdBytes;
    }

    /**
     * @return the region cache capacity in declared bytes; 0: no caching.
     */
    public long regionCacheMaxBytes()
    {
        return regionCacheMaxBytes;
    }

    /**
     * @return the longest a partner may stay silent, or an unacknowledged frame wait, before it is given up.
     */
    public long peerTimeoutNs()
    {
        return resendTimeoutNs * (maxResends + 1L);
    }

    /**
     * Mutable builder; {@link #build()} validates every value and names the bad one.
     */
    public static final class Builder
    {
        private EndpointConfig driverConfig = EndpointConfig.of(0, 0);
        private int applicationKey;
        private ProgressMode progressMode = ProgressMode.THREAD;
        private long callerPollNs = 50_000L;
        /** Null: {@link ProgressSlice#fromEnvironment} at build. */
        private Long progressSliceNs;
        private PollIdle callerPollIdle = PollIdle.BUSY_POLLING;
        private int tinyMaxBytes = 32;
        private int smallMaxBytes = 128;
        private int mediumFragmentBytes = 8192;
        private long rendezvousThresholdBytes = 32 * 1024;
        private long resendTimeoutNs = 20_000_000L;
        private int maxResends = 250;
        private long ackDelayNs = 200_000L;
        private long losslessAckDelayNs = 200_000L;
        private int ackEveryFrames = 16;
        private int sendWindowFrames = 64;
        private long keepaliveIntervalNs = 100_000_000L;
        private long connectResendNs = 50_000_000L;
        private long pullEndPatienceNs = 30_000_000_000L;
        private int unexpectedMaxMessages = 4096;
        private long unexpectedMaxBytes = 64L * 1024 * 1024;
        private int maxRequests = 16384;
        private int regionCacheMaxRegions = 1024;
        private long regionCacheMaxBytes = 1L << 30;
        private NanoClock clock = NanoClock.SYSTEM;

        private Builder()
        {
        }

        /**
         * How long a waiting API call stays on its core at the start of its wait (CALLER: progress rounds, a spin when
         * one finds nothing; THREAD: watching its request while the agent thread polls); default 50 us, about what a
         * blocked wake-up costs, so a wait costs at most about twice the better choice. Then, in
         * {@link ProgressMode#CALLER} mode, it blocks in the driver until an event or the next timer; in THREAD mode
         * it parks until its request completes.
         * 0: block after one round (a caller that polled the endpoint itself before waiting).
         */
        public Builder callerPollNs(final long callerPollNs)
        {
            this.callerPollNs = callerPollNs;
            return this;
        }

        /**
         * How a waiting API call idles between the tries of its poll phase (the first {@code callerPollNs}, or the
         * poll time the wait names); default {@link PollIdle#BUSY_POLLING}.
         */
        /**
         * The DEDICATED progress thread's time slice ({@link ProgressSlice}); 0: the kernel's default. Default:
         * {@value ProgressSlice#VARIABLE} microseconds if set, else {@link ProgressSlice#DEFAULT_NS}.
         */
        public Builder progressSliceNs(final long progressSliceNs)
        {
            this.progressSliceNs = progressSliceNs;
            return this;
        }

        public Builder callerPollIdle(final PollIdle callerPollIdle)
        {
            this.callerPollIdle = Objects.requireNonNull(callerPollIdle, "callerPollIdle");
            return this;
        }

        /** Board, endpoint index and provider options for the driver; default board 0, endpoint 0. */
        public Builder driverConfig(final EndpointConfig driverConfig)
        {
            this.driverConfig = Objects.requireNonNull(driverConfig, "driverConfig");
            return this;
        }

        /** Key a peer must present to connect to this endpoint; default 0. */
        public Builder applicationKey(final int applicationKey)
        {
            this.applicationKey = applicationKey;
            return this;
        }

        /** Default {@link ProgressMode#THREAD} (a dedicated agent thread; CALLER: the callers' waits invoke it). */
        public Builder progressMode(final ProgressMode progressMode)
        {
            this.progressMode = Objects.requireNonNull(progressMode, "progressMode");
            return this;
        }

        /** Largest message sent as one TINY frame, 0..32; default 32. */
        public Builder tinyMaxBytes(final int tinyMaxBytes)
        {
            this.tinyMaxBytes = tinyMaxBytes;
            return this;
        }

        /** Largest message sent as one SMALL frame, tinyMax..128; default 128. */
        public Builder smallMaxBytes(final int smallMaxBytes)
        {
            this.smallMaxBytes = smallMaxBytes;
            return this;
        }

        /** Payload of one MEDIUM_FRAG frame, capped at the driver's frame payload; default 8192. */
        public Builder mediumFragmentBytes(final int mediumFragmentBytes)
        {
            this.mediumFragmentBytes = mediumFragmentBytes;
            return this;
        }

        /** Largest eager message; anything longer goes by rendezvous; default 32 KiB. */
        public Builder rendezvousThresholdBytes(final long rendezvousThresholdBytes)
        {
            this.rendezvousThresholdBytes = rendezvousThresholdBytes;
            return this;
        }

        /** Time before unacknowledged frames are sent again; default 20 ms. */
        public Builder resendTimeoutNs(final long resendTimeoutNs)
        {
            this.resendTimeoutNs = resendTimeoutNs;
            return this;
        }

        /** Resends of one frame before the partner is given up; default 250 (5 s at the default timeout). */
        public Builder maxResends(final int maxResends)
        {
            this.maxResends = maxResends;
            return this;
        }

        /** Longest an ack waits for a frame to ride on; default 200 us. */
        public Builder ackDelayNs(final long ackDelayNs)
        {
            this.ackDelayNs = ackDelayNs;
            return this;
        }

        /**
         * Longest the ack of a TINY or SMALL frame waits when the driver says it came through a queue that cannot
         * lose it (the user driver's same-host ring), where the send completed without the ack; at least
         * {@code ackDelayNs}; below {@code resendTimeoutNs}; default 200 us.
         */
        public Builder losslessAckDelayNs(final long losslessAckDelayNs)
        {
            this.losslessAckDelayNs = losslessAckDelayNs;
            return this;
        }

        /** Frames accepted before an ack goes out at once; default 16. */
        public Builder ackEveryFrames(final int ackEveryFrames)
        {
            this.ackEveryFrames = ackEveryFrames;
            return this;
        }

        /** Unacknowledged frames in flight per partner, a power of two; default 64. */
        public Builder sendWindowFrames(final int sendWindowFrames)
        {
            this.sendWindowFrames = sendWindowFrames;
            return this;
        }

        /** Silence from a partner we wait on before asking it for an ack; default 100 ms. */
        public Builder keepaliveIntervalNs(final long keepaliveIntervalNs)
        {
            this.keepaliveIntervalNs = keepaliveIntervalNs;
            return this;
        }

        /** Interval between CONNECT_REQUEST resends; default 50 ms. */
        public Builder connectResendNs(final long connectResendNs)
        {
            this.connectResendNs = connectResendNs;
            return this;
        }

        /**
         * How long a failed read or receive waits for the driver to report its cancelled pull's end before it fails
         * anyway (the driver may then still write into its buffer): longer than the driver lets an unanswered pull
         * run (the user driver about 6 s), so that only an end that never comes reaches it; default 30 s.
         */
        public Builder pullEndPatienceNs(final long pullEndPatienceNs)
        {
            this.pullEndPatienceNs = pullEndPatienceNs;
            return this;
        }

        /** Bound of the unexpected queue in messages; default 4096. */
        public Builder unexpectedMaxMessages(final int unexpectedMaxMessages)
        {
            this.unexpectedMaxMessages = unexpectedMaxMessages;
            return this;
        }

        /** Bound of the unexpected queue in stored eager bytes; default 64 MiB. */
        public Builder unexpectedMaxBytes(final long unexpectedMaxBytes)
        {
            this.unexpectedMaxBytes = unexpectedMaxBytes;
            return this;
        }

        /** Requests alive at once (pool size), 1..65536; default 16384. */
        public Builder maxRequests(final int maxRequests)
        {
            this.maxRequests = maxRequests;
            return this;
        }

        /** Region cache capacity in regions; default 1024. */
        public Builder regionCacheMaxRegions(final int regionCacheMaxRegions)
        {
            this.regionCacheMaxRegions = regionCacheMaxRegions;
            return this;
        }

        /**
         * Region cache capacity in declared bytes; default 1 GiB. 0 turns the cache off: every rendezvous
         * declares its buffer's region and destroys it when the request ends (with a driver that pins at
         * declaration, Open-MX's pin once per communication).
         */
        public Builder regionCacheMaxBytes(final long regionCacheMaxBytes)
        {
            this.regionCacheMaxBytes = regionCacheMaxBytes;
            return this;
        }

        /** Time source of every protocol timer; default {@link NanoClock#SYSTEM}. */
        public Builder clock(final NanoClock clock)
        {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first bad value.
         */
        public EndpointOptions build()
        {
            check(callerPollNs >= 0, "callerPollNs", callerPollNs, ">= 0");
            if (null == progressSliceNs)
            {
                progressSliceNs = ProgressSlice.fromEnvironment(System.getenv());
            }
            check(ProgressSlice.isValid(progressSliceNs), "progressSliceNs", progressSliceNs,
                "0 or " + LibcScheduling.MIN_SLICE_NS + ".." + LibcScheduling.MAX_SLICE_NS);
            check(tinyMaxBytes >= 0 && tinyMaxBytes <= 32, "tinyMaxBytes", tinyMaxBytes, "0..32");
            check(smallMaxBytes >= tinyMaxBytes && smallMaxBytes <= 128, "smallMaxBytes", smallMaxBytes, "tinyMaxBytes..128");
            check(mediumFragmentBytes >= 64, "mediumFragmentBytes", mediumFragmentBytes, ">= 64");
            check(rendezvousThresholdBytes >= smallMaxBytes && rendezvousThresholdBytes <= (1L << 30),
                "rendezvousThresholdBytes", rendezvousThresholdBytes, "smallMaxBytes..2^30");
            check(resendTimeoutNs > 0, "resendTimeoutNs", resendTimeoutNs, "> 0");
            check(maxResends >= 0, "maxResends", maxResends, ">= 0");
            check(ackDelayNs >= 0, "ackDelayNs", ackDelayNs, ">= 0");
            check(losslessAckDelayNs >= 0 && losslessAckDelayNs < resendTimeoutNs, "losslessAckDelayNs",
                losslessAckDelayNs, "0..resendTimeoutNs - 1, so the sender never resends for want of it");
            check(ackEveryFrames >= 1, "ackEveryFrames", ackEveryFrames, ">= 1");
            check(sendWindowFrames >= 1 && sendWindowFrames <= 1 << 16 && Integer.bitCount(sendWindowFrames) == 1,
                "sendWindowFrames", sendWindowFrames, "a power of two in 1..65536");
            check(keepaliveIntervalNs > 0, "keepaliveIntervalNs", keepaliveIntervalNs, "> 0");
            check(connectResendNs > 0, "connectResendNs", connectResendNs, "> 0");
            check(pullEndPatienceNs > 0, "pullEndPatienceNs", pullEndPatienceNs, "> 0");
            check(unexpectedMaxMessages >= 1, "unexpectedMaxMessages", unexpectedMaxMessages, ">= 1");
            check(unexpectedMaxBytes >= rendezvousThresholdBytes, "unexpectedMaxBytes", unexpectedMaxBytes,
                ">= rendezvousThresholdBytes, so one eager message always fits");
            check(maxRequests >= 1 && maxRequests <= 1 << 16, "maxRequests", maxRequests, "1..65536");
            check(regionCacheMaxRegions >= 1, "regionCacheMaxRegions", regionCacheMaxRegions, ">= 1");
            check(regionCacheMaxBytes >= 0, "regionCacheMaxBytes", regionCacheMaxBytes, ">= 0 (0: no caching)");
            return new EndpointOptions(this);
        }

        private static void check(final boolean ok, final String name, final long value, final String range)
        {
            if (!ok)
            {
                throw new IllegalArgumentException("endpoint option " + name + " = " + value + ": must be " + range);
            }
        }
    }
}
