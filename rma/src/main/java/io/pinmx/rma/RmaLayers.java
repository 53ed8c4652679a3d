package io.pinmx.rma;

import io.pinmx.job.EndpointTuning;
import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.ProgressMode;
import io.pinmx.pin.provider.SegmentKinds;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;

/**
 * The layers under one rank's {@link Rma}: the ranks' tiers and mapped slices, and, when any rank of the job is
 * reached through the driver, this rank's endpoint, driver tier and data server; the allocator and the transfers
 * over both tiers; the two-sided messages, over that endpoint or, when there is none, one of their own that each rank
 * opens only when messages first need it. Opened collectively at init, released in reverse at close.
 */
final class RmaLayers
{
    final Arena arena;
    final Ranks ranks;
    final ProtocolChoice protocols;
    /** Null when every rank of the job reaches every other through shared memory, as {@link #driver} and {@link #server}. */
    final JobEndpoint endpoint;
    final DriverTier driver;
    final DataServer server;
    /** Whether this rank's slices take puts, integer accumulates and read-modify-writes from its driver. */
    final boolean driverWrites;
    final Allocator allocator;
    final Transfers transfers;
    final TwoSidedMessages twoSided;

    /**
     * Collective: the endpoint is opened by every rank or by none.
     *
     * @throws RmaException on every rank alike, naming a rank whose control file does not fit in its directory, or
     *                      whose driver cannot take the writes its {@code PINMX_RMA_DRIVER_WRITES} asks for.
     */
    RmaLayers(final Job job, final RmaOptions options)
    {
        SegmentKinds.loadAll();
        this.arena = Arena.ofShared();
        try
        {
            this.ranks = Ranks.discover(job, options.directory(), options.sharedMemory(), arena);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
        this.protocols = new ProtocolChoice(options.strided(), options.contiguous(), options.passivePuts());
        if (anyRankNeedsTheDriver(job, ranks))
        {
            this.endpoint = JobEndpoint.open(job, System.getenv(), endpointTuning(options));
            try
            {
                this.driverWrites = agreeDriverWrites(job, options.driverWrites(),
                    endpoint.endpoint().driverInfo());
            }
            catch (final RuntimeException ex)
            {
                endpoint.close();
                ranks.close();
                arena.close();
                throw ex;
            }
            this.allocator = new Allocator(job, ranks, options.directory(), endpoint.endpoint(), driverWrites);
            this.driver = new DriverTier(endpoint, protocols, EpochCounters.exchange(endpoint, ranks.gate(job.rank()),
                options.accessEpochs()));
            this.server = new DataServer(endpoint.endpoint(), allocator, ranks.stripes(job.rank()),
                ranks.gate(job.rank()), job.rank(), job.size());
        }
        else
        {
            this.endpoint = null;
            this.driverWrites = false;
            this.allocator = new Allocator(job, ranks, options.directory(), null, false);
            this.driver = null;
            this.server = null;
        }
        this.transfers = new Transfers(ranks, driver, arena, options.accessEpochs());
        this.twoSided = new TwoSidedMessages(null != endpoint ? new JobMessagePeers(endpoint) :
            new OnDemandMessageEndpoint(job, ranks,
                () -> JobEndpoint.openUnconnected(job, System.getenv(), messageTuning(options))), ranks);
    }

    /**
     * Every rank reaches every other through shared memory: two-sided messages alone use this endpoint, so it runs no
     * thread (the rank's waits and its liveness watcher drive it) and publishes no counters (opening their map takes
     * seconds).
     */
    private static EndpointTuning messageTuning(final RmaOptions options)
    {
        return new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                config.option(ProviderOptionKeys.USER_SAME_HOST, options.sharedMemory())
                    .option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
                    .option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false);
            }

            @Override
            public void options(final EndpointOptions.Builder endpointOptions)
            {
                endpointOptions.progressMode(ProgressMode.CALLER);
            }
        };
    }

    /**
     * With the shared-memory tier off, the user driver's own same-host rings are off too: the driver tier is then
     * the path that crosses a network (UDP frames), which is what switching the tier off is for.
     * <p>
     * The user driver runs no progress thread of its own: the endpoint's progress thread, or a thread waiting in the
     * endpoint (the data server between requests, a caller awaiting a reply), polls it: a driver thread besides would
     * put more spinning threads per rank than a small host has cores, and every operation would pay for that.
     * Acks keep the library's delay: a waiting thread that polls and finds nothing sends the acks a partner waits for
     * at once (a put's, once the data server has applied it), and the others ride on replies.
     */
    private static EndpointTuning endpointTuning(final RmaOptions options)
    {
        return new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                // No node-wide counters file: opening its Chronicle Map compiles generated Java source on a
                // background thread of every rank, seconds of CPU that a rank bound to one CPU takes from its own
                // computation (as the message endpoint above, the MPJ device and bench-imb's transports).
                config.option(ProviderOptionKeys.USER_SAME_HOST, options.sharedMemory())
                    .option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
                    .option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false);
            }
        };
    }

    /**
     * Collective: whether this rank's slices take its driver's writes ({@link DriverWrites#takes}).
     *
     * @throws RmaException on every rank alike, naming each rank whose driver cannot take the writes it asked for.
     */
    private static boolean agreeDriverWrites(final Job job, final DriverWrites asked, final DriverInfo driver)
    {
        boolean takes = false;
        String refusal = "";
        try
        {
            takes = asked.takes(driver);
        }
        catch (final IllegalArgumentException ex)
        {
            refusal = "rank " + job.rank() + ": " + ex.getMessage();
        }
        final StringBuilder refusals = new StringBuilder();
        for (final byte[] theirs : job.allGather(refusal.getBytes(StandardCharsets.UTF_8)))
        {
            if (theirs.length > 0)
            {
                refusals.append(refusals.isEmpty() ? "" : "; ").append(new String(theirs, StandardCharsets.UTF_8));
            }
        }
        if (!refusals.isEmpty())
        {
            throw new RmaException("rma init refused driver writes: " + refusals);
        }
        return takes;
    }

    /** Collective: whether any rank of the job reaches some rank only through the driver. */
    private static boolean anyRankNeedsTheDriver(final Job job, final Ranks ranks)
    {
        boolean mine = false;
        for (int r = 0; r < ranks.size(); r++)
        {
            mine |= RankTier.DRIVER == ranks.tier(r);
        }
        for (final byte[] theirs : job.allGather(new byte[] {(byte)(mine ? 1 : 0)}))
        {
            if (1 == theirs[0])
            {
                return true;
            }
        }
        return false;
    }

    /** @return requests this rank's data server has served (0 without one): what its CPU did for others. */
    long dataServerRequests()
    {
        return null == server ? 0 : server.requestsServed();
    }

    /** @return of the packed gets this rank's data server answered: packed, sent in chunks, pack-area bytes held. */
    long[] dataServerPackedGets()
    {
        return null == server ? new long[3] : server.packedGets();
    }

    /** Stops the data server, closes the endpoint, unmaps every slice. */
    void release()
    {
        twoSided.close();
        if (null != server)
        {
            server.close();
            endpoint.close();
        }
        ranks.close();
        arena.close();
    }
}
