package io.pinmx.job;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.provider.ProcessStatus;
import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.ProviderOptionKeys;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * This rank's pinmx endpoint, opened on the driver PINMX_DRIVER chooses (user, kernel or auto, through pin-contract's
 * {@link DriverSelector}; unset means user) and connected to every other rank of the {@link Job}: the addresses are
 * all-gathered over the job's control plane, each rank connects to every other, and a barrier ends the set-up. The
 * endpoint is reachable where {@link RankAddress} says (the user driver binds that address, the kernel provider
 * attaches that interface), whatever the {@link EndpointTuning} set for them.
 * Owns the endpoint and the partner table by rank; the job stays the caller's.
 * <p>
 * With {@link ProgressMode#CALLER} nothing makes progress unless the caller does, yet an eager send completes only
 * when its ack comes back (except a TINY/SMALL one put in a same-host peer's ring): the job's control plane then polls this endpoint while it waits for a peer (a progress
 * hook), from the connect on until {@link #close()}.
 */
public final class JobEndpoint implements AutoCloseable
{
    /** The selector's variable (user, kernel or auto); unset means user here. */
    public static final String DRIVER_VARIABLE = DriverSelector.VARIABLE;
    /** The driver when PINMX_DRIVER is unset (bin/pinmx-run sets it). */
    public static final String DEFAULT_DRIVER = "user";
    /**
     * Milliseconds a partner may stay silent while this rank waits on it before the endpoint gives it up (library
     * default 5000). Runs in the TCG guest need more: a rank there can be silent for over 5 s in JIT warm-up.
     */
    public static final String PEER_TIMEOUT_VARIABLE = "PINMX_PEER_TIMEOUT_MS";
    /**
     * "0" turns the user driver's same-host shared-memory rings off, so ranks of one host talk UDP as ranks of
     * different hosts do; "1" (default) leaves the tuning's choice.
     */
    public static final String SAME_HOST_VARIABLE = "PINMX_SAME_HOST";
    /** The application key every rank of a job presents, unless its tuning sets another. */
    public static final int APPLICATION_KEY = 0x706d7862;
    /** Resend interval of unacknowledged frames (the library's default); the peer timeout is a multiple of it. */
    private static final long RESEND_TIMEOUT_NS = 20_000_000L;
    private static final long DEFAULT_PEER_TIMEOUT_MS = 5_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** First byte of a published refusal: an address starts with its board's scheme, in ASCII letters. */
    private static final byte REFUSED = 0;

    private final Job job;
    private final String driver;
    private final RankAddress reachable;
    private final Endpoint endpoint;
    private final DriverEndpoint driverEndpoint;
    private final Partner[] partners;

    private JobEndpoint(
        final Job job, final String driver, final RankAddress reachable, final Endpoint endpoint,
        final DriverEndpoint driverEndpoint, final Partner[] partners)
    {
        this.job = job;
        this.driver = driver;
        this.reachable = reachable;
        this.endpoint = endpoint;
        this.driverEndpoint = driverEndpoint;
        this.partners = partners;
    }

    /**
     * Opens with the library's defaults; see {@link #open(Job, Map, EndpointTuning)}.
     */
    public static JobEndpoint open(final Job job, final Map<String, String> env)
    {
        return open(job, env, EndpointTuning.DEFAULTS);
    }

    /**
     * Opens this rank's endpoint and connects it to every other rank; every rank of the job must call it.
     *
     * @throws IllegalArgumentException naming PINMX_DRIVER if it asks for a driver that cannot run here, or
     *                                  PINMX_PEER_TIMEOUT_MS if it is not a positive number.
     * @throws io.pinmx.mx.MxException  naming the remote endpoint if a rank cannot be connected; on every rank alike,
     *                                  naming each rank whose endpoint did not open and why (its shared-memory file
     *                                  did not fit in PINMX_SHM_DIR, say), if any did not.
     */
    public static JobEndpoint open(final Job job, final Map<String, String> env, final EndpointTuning tuning)
    {
        final String driver = env.getOrDefault(DRIVER_VARIABLE, DEFAULT_DRIVER);
        final PinDriver selected = select(driver);
        final Configured configured = configure(job, env, tuning, selected);
        final RankAddress reachable = configured.reachable();
        // Keeps the provider's endpoint itself (not wrapped) so provider counters can be read through it.
        final DriverEndpoint[] opened = new DriverEndpoint[1];
        final PinDriver keepingItsEndpoint = new PinDriver()
        {
            @Override
            public DriverInfo info()
            {
                return selected.info();
            }

            @Override
            public DriverEndpoint open(final EndpointConfig config)
            {
                opened[0] = selected.open(config);
                return opened[0];
            }
        };
        final Endpoint endpoint;
        try
        {
            endpoint = Endpoint.open(keepingItsEndpoint, configured.options());
        }
        catch (final RuntimeException ex)
        {
            // The others are on their way into the address exchange: they learn of it there instead of waiting.
            final List<byte[]> all;
            try
            {
                all = job.allGather(refusal("rank " + job.rank() + " could not open its endpoint: " + ex.getMessage()));
            }
            catch (final RuntimeException lost)
            {
                ex.addSuppressed(lost);
                throw ex;
            }
            throw refusedOnEveryRank(all, ex);
        }
        if (ProgressMode.CALLER == endpoint.options().progressMode())
        {
            final Status probed = new Status();
            job.progressHook(() -> endpoint.iprobe(MatchInfo.ANY_SOURCE, 0, -1L, probed));
        }
        try
        {
            final Partner[] partners = connectEveryRank(job, endpoint);
            failPartnersOnDeath(job, endpoint, partners);
            return new JobEndpoint(job, driver, reachable, endpoint, opened[0], partners);
        }
        catch (final RuntimeException ex)
        {
            job.progressHook(null);
            endpoint.close();
            throw ex;
        }
    }

    /**
     * Opens this rank's endpoint as {@link #open(Job, Map, EndpointTuning)} configures it, connected to no rank and
     * without a collective: for a layer whose ranks open their endpoints on first use and connect to each other
     * themselves. The caller owns it.
     *
     * @throws IllegalArgumentException as {@link #open(Job, Map, EndpointTuning)} does for the variables.
     * @throws RuntimeException         the endpoint library's own, when the endpoint does not open (its shared-memory
     *                                  file did not fit in PINMX_SHM_DIR, say).
     */
    public static Endpoint openUnconnected(final Job job, final Map<String, String> env, final EndpointTuning tuning)
    {
        final PinDriver selected = select(env.getOrDefault(DRIVER_VARIABLE, DEFAULT_DRIVER));
        return Endpoint.open(selected, configure(job, env, tuning, selected).options());
    }

    /** Where this rank is reached, and the endpoint's options there. */
    private record Configured(RankAddress reachable, EndpointOptions options)
    {
    }

    /**
     * @throws IllegalArgumentException naming PINMX_DRIVER if it asks for a driver that cannot run here.
     */
    private static PinDriver select(final String driver)
    {
        try
        {
            return DriverSelector.select(driver, DRIVER_VARIABLE + "=" + driver);
        }
        catch (final DriverException ex)
        {
            throw new IllegalArgumentException(ex.getMessage(), ex);
        }
    }

    private static Configured configure(
        final Job job, final Map<String, String> env, final EndpointTuning tuning, final PinDriver selected)
    {
        final long peerTimeoutMs = peerTimeoutMs(env);
        final boolean sameHost = sameHost(env);
        final RankAddress reachable = RankAddress.choose(env, job);
        // A UDP provider binds the address its partners reach it at, so that address must be known.
        final InetAddress userBind = selected.info().features().contains(DriverFeature.UDP) ?
            reachable.requireAddress() : reachable.address();
        return new Configured(reachable, options(job, tuning, peerTimeoutMs, sameHost, reachable, userBind));
    }

    /** What a rank whose endpoint did not open publishes instead of its address. */
    private static byte[] refusal(final String why)
    {
        final byte[] text = why.getBytes(StandardCharsets.UTF_8);
        final byte[] published = new byte[1 + text.length];
        published[0] = REFUSED;
        System.arraycopy(text, 0, published, 1, text.length);
        return published;
    }

    /**
     * @param mine this rank's own failure, the cause of what it throws, or null.
     * @return every rank's refusal in rank order, or null when every rank published its address.
     */
    private static MxException refusedOnEveryRank(final List<byte[]> published, final RuntimeException mine)
    {
        final StringBuilder refusals = new StringBuilder();
        for (final byte[] theirs : published)
        {
            if (theirs.length > 0 && REFUSED == theirs[0])
            {
                refusals.append(refusals.isEmpty() ? "" : "; ")
                    .append(new String(theirs, 1, theirs.length - 1, StandardCharsets.UTF_8));
            }
        }
        return refusals.isEmpty() ? null :
            new MxException("the job's endpoints did not open on every rank: " + refusals, mine);
    }

    private static EndpointOptions options(
        final Job job, final EndpointTuning tuning, final long peerTimeoutMs, final boolean sameHost,
        final RankAddress reachable, final InetAddress userBind)
    {
        final EndpointConfig.Builder config = EndpointConfig.builder();
        tuning.driverConfig(config);
        // Where the peers reach this rank is the job's choice, whatever else the tuning changed.
        if (!sameHost)
        {
            config.option(ProviderOptionKeys.USER_SAME_HOST, false);
        }
        if (null != userBind)
        {
            config.option(ProviderOptionKeys.USER_BIND_ADDRESS, userBind);
        }
        config.option(ProviderOptionKeys.KERNEL_INTERFACE, reachable.interfaceName());
        config.boardIndex(0).endpointIndex(job.rank() % (EndpointAddress.MAX_ENDPOINT_INDEX + 1));
        final EndpointOptions.Builder options = EndpointOptions.builder().applicationKey(APPLICATION_KEY);
        tuning.options(options);
        return options
            .driverConfig(config.build())
            .resendTimeoutNs(RESEND_TIMEOUT_NS)
            .maxResends((int)Math.max(0, (peerTimeoutMs * 1_000_000L + RESEND_TIMEOUT_NS - 1) / RESEND_TIMEOUT_NS - 1))
            .build();
    }

    private static Partner[] connectEveryRank(final Job job, final Endpoint endpoint)
    {
        final EndpointAddress local = endpoint.address();
        // with each rank's host identity and pid: ranks of this host are judged by their processes, exactly
        final List<byte[]> addresses = job.allGather((local.board() + " " + local.endpointIndex() + " " +
            hostIdentity() + " " + ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII));
        final MxException refused = refusedOnEveryRank(addresses, null);
        if (null != refused)
        {
            throw refused;
        }
        final Partner[] partners = new Partner[job.size()];
        for (int peer = 0; peer < job.size(); peer++)
        {
            if (peer != job.rank())
            {
                final String[] published = new String(addresses.get(peer), StandardCharsets.US_ASCII).split(" ");
                final Partner partner = endpoint.connect(
                    new EndpointAddress(BoardAddress.parse(published[0]), Integer.parseInt(published[1]), 0),
                    endpoint.options().applicationKey(), CONNECT_TIMEOUT).named("rank " + peer);
                if (onThisHost(job, peer, published[2]))
                {
                    partner.runsOnThisHost(Integer.parseInt(published[3]));
                }
                partners[peer] = partner;
            }
        }
        job.barrier();
        return partners;
    }

    /**
     * A peer runs on this host when it has this host's identity (boot id and pid namespace) and, where the launcher
     * tells which ranks share this node (PMIx), is one of them: ranks of two launcher nodes in one kernel (network
     * namespaces) then stay separate hosts, as they are to their launcher.
     */
    private static boolean onThisHost(final Job job, final int peer, final String identity)
    {
        final int[] nodeRanks = job.nodeRanks();
        return identity.equals(hostIdentity()) && (null == nodeRanks || Arrays.binarySearch(nodeRanks, peer) >= 0);
    }

    /** A rank the launcher reports dead fails at once, whatever waits on it, instead of after the peer timeout. */
    private static void failPartnersOnDeath(final Job job, final Endpoint endpoint, final Partner[] partners)
    {
        job.onRankDeath((rank, why) ->
        {
            if (rank >= 0 && rank < partners.length && null != partners[rank])
            {
                endpoint.failPartner(partners[rank], why);
            }
        });
    }

    /**
     * @throws IllegalArgumentException naming PINMX_PEER_TIMEOUT_MS if it is not 1..2^31-1 milliseconds.
     */
    public static long peerTimeoutMs(final Map<String, String> env)
    {
        final String value = env.getOrDefault(PEER_TIMEOUT_VARIABLE, Long.toString(DEFAULT_PEER_TIMEOUT_MS));
        try
        {
            final long ms = Long.parseLong(value);
            if (ms > 0 && ms <= Integer.MAX_VALUE)
            {
                return ms;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // named below
        }
        throw new IllegalArgumentException(PEER_TIMEOUT_VARIABLE + "=" + value + ": expected milliseconds, 1.." +
            Integer.MAX_VALUE);
    }

    /**
     * @throws IllegalArgumentException naming PINMX_SAME_HOST if it is neither 0 nor 1.
     */
    public static boolean sameHost(final Map<String, String> env)
    {
        final String value = env.getOrDefault(SAME_HOST_VARIABLE, "1");
        return switch (value)
        {
            case "1" -> true;
            case "0" -> false;
            default -> throw new IllegalArgumentException(SAME_HOST_VARIABLE + "=" + value +
                ": expected 0 (same-host rings off, UDP) or 1");
        };
    }

    /** This host as the job compares it: "-" when /proc does not tell (then no two ranks count as one host's). */
    private static String hostIdentity()
    {
        final String identity = ProcessStatus.hostIdentity();
        return identity.isEmpty() ? "-" + ProcessHandle.current().pid() : identity;
    }

    public Job job()
    {
        return job;
    }

    /**
     * @return the driver choice the endpoint was opened with (PINMX_DRIVER's value, or {@value #DEFAULT_DRIVER}).
     */
    public String driver()
    {
        return driver;
    }

    /**
     * @return where this rank's peers reach it (address, interface) and which rule chose it.
     */
    public RankAddress reachable()
    {
        return reachable;
    }

    public Endpoint endpoint()
    {
        return endpoint;
    }

    /**
     * @return the provider's own endpoint under the library's (for provider-specific reads such as module counters).
     */
    public DriverEndpoint driverEndpoint()
    {
        return driverEndpoint;
    }

    /**
     * @throws IllegalArgumentException naming the rank if it is this rank or not a rank of the job.
     */
    public Partner partner(final int rank)
    {
        if (rank < 0 || rank >= partners.length || null == partners[rank])
        {
            throw new IllegalArgumentException("rank " + rank + " is not another rank of this job of " + partners.length);
        }
        return partners[rank];
    }

    /**
     * Removes the job's progress hook and closes the endpoint; the job stays open.
     */
    @Override
    public void close()
    {
        job.progressHook(null);
        endpoint.close();
    }
}
