package io.pinmx.job;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The control plane of a job of N ranks: small collectives of byte payloads (all-gather, barrier, broadcast,
 * gather) for set-up and bookkeeping (addresses, timings), not for data. Under a launcher that serves PMIx
 * ({@link #servedByPmix}) they go through its PMIx server ({@link PmixExchange}); otherwise through a TCP star
 * with rank 0 met at the bootstrap rendezvous ({@link TcpStar}). One thread per rank uses it; collectives must
 * be called by every rank in the same order.
 */
public final class Job implements AutoCloseable
{
    public static final String TIMEOUT_VARIABLE = "PINMX_BOOTSTRAP_TIMEOUT_MS";
    /** Largest payload one rank may contribute to one collective. */
    public static final int MAX_PAYLOAD_BYTES = 1 << 24;
    /** Set by a PMIx launcher in every process it starts: the job's namespace. */
    public static final String PMIX_NAMESPACE_VARIABLE = "PMIX_NAMESPACE";
    /** Prefix of the variables telling a PMIx client where its server listens (PMIX_SERVER_URI4, ...). */
    public static final String PMIX_SERVER_PREFIX = "PMIX_SERVER_URI";
    private static final long DEFAULT_TIMEOUT_MS = 30_000;

    private final JobRank rank;
    private final ControlPlane plane;

    private Job(final JobRank rank, final ControlPlane plane)
    {
        this.rank = rank;
        this.plane = plane;
    }

    /**
     * Joins the job described by the environment: through the launcher's PMIx server when {@link #servedByPmix},
     * else with rank and size from the {@link Launcher}'s variables through PINMX_BOOTSTRAP
     * (PINMX_BOOTSTRAP_TIMEOUT_MS).
     *
     * @throws IllegalArgumentException naming the variable that is missing or malformed.
     * @throws IllegalStateException    naming the ranks or address involved if the rendezvous does not complete
     *                                  within the timeout, or the PMIx call that failed and PMIx's text for why.
     */
    public static Job join(final Map<String, String> env)
    {
        if (servedByPmix(env))
        {
            final PmixExchange pmix = PmixExchange.join();
            try
            {
                return new Job(new JobRank(pmix.rank(), pmix.size()), pmix);
            }
            catch (final RuntimeException ex)
            {
                pmix.close();
                throw ex;
            }
        }
        final JobRank rank = JobRank.fromEnvironment(env);
        return new Job(rank, TcpStar.join(rank, env, timeoutMs(env)));
    }

    /**
     * The one place the control plane is chosen: PMIx when a PMIx server started this process (PMIX_NAMESPACE,
     * PMIX_RANK and a PMIX_SERVER_URI* variable are set) and neither bin/pinmx-run's own ranks (PINMX_RANK) nor
     * an explicit PINMX_BOOTSTRAP asks for the TCP star.
     */
    public static boolean servedByPmix(final Map<String, String> env)
    {
        return null == env.get(Launcher.PINMX_RUN.rankVariable()) && null == env.get(BootstrapAddress.VARIABLE) &&
            null != env.get(PMIX_NAMESPACE_VARIABLE) && null != env.get(Launcher.PMIX.rankVariable()) &&
            env.keySet().stream().anyMatch(name -> name.startsWith(PMIX_SERVER_PREFIX));
    }

    private static long timeoutMs(final Map<String, String> env)
    {
        final String value = env.get(TIMEOUT_VARIABLE);
        if (null == value)
        {
            return DEFAULT_TIMEOUT_MS;
        }
        try
        {
            final long ms = Long.parseLong(value.trim());
            if (ms > 0)
            {
                return ms;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the valid range
        }
        throw new IllegalArgumentException(TIMEOUT_VARIABLE + "=" + value + " is not a positive number of milliseconds");
    }

    /**
     * @return the local address of this rank's control connection to rank 0 (rank 0: the address the other ranks
     *         reached it at), so the route the job's traffic takes to rank 0; loopback in a job of one; null under
     *         PMIx, where the job has no connection of its own.
     */
    public InetAddress controlAddress()
    {
        return plane.controlAddress();
    }

    /**
     * @return the ranks that share this rank's node as the launcher tells it (this one included, ascending), or
     *         null when the control plane does not know (the TCP star).
     */
    public int[] nodeRanks()
    {
        return plane.nodeRanks();
    }

    /**
     * @return true when this job's control plane is the launcher's PMIx server.
     */
    public boolean usesPmix()
    {
        return plane instanceof PmixExchange;
    }

    public int rank()
    {
        return rank.rank();
    }

    public int size()
    {
        return rank.size();
    }

    /**
     * Every rank contributes bytes; every rank gets all contributions indexed by rank.
     *
     * @throws IllegalArgumentException naming the size if {@code mine} is larger than {@link #MAX_PAYLOAD_BYTES}.
     * @throws IllegalStateException    naming the rank whose control connection was lost, or that died.
     */
    public List<byte[]> allGather(final byte[] mine)
    {
        checkPayload(mine);
        return plane.allGather(mine);
    }

    /**
     * Returns on every rank once every rank has called it.
     */
    public void barrier()
    {
        plane.barrier();
    }

    /**
     * @param root  the rank whose bytes every rank gets.
     * @param bytes the payload on {@code root}; ignored (may be null) elsewhere.
     * @return root's payload, on every rank.
     * @throws IllegalArgumentException naming root if it is not a rank of this job, or the size if root's payload
     *                                  is larger than {@link #MAX_PAYLOAD_BYTES}.
     */
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        checkRoot(root);
        if (rank() == root)
        {
            checkPayload(bytes);
        }
        return plane.broadcast(root, bytes);
    }

    /**
     * @param root the rank that gets every contribution.
     * @return on {@code root}, every rank's bytes indexed by rank; elsewhere an empty list.
     * @throws IllegalArgumentException naming root if it is not a rank of this job, or the size if {@code mine} is
     *                                  larger than {@link #MAX_PAYLOAD_BYTES}.
     */
    public List<byte[]> gather(final int root, final byte[] mine)
    {
        checkRoot(root);
        checkPayload(mine);
        return plane.gather(root, mine);
    }

    /**
     * @return every rank's value indexed by rank on rank 0, an empty array elsewhere.
     */
    public double[] gather(final double mine)
    {
        final List<byte[]> all = gather(0, ByteBuffer.allocate(Double.BYTES).putDouble(mine).array());
        final double[] values = new double[all.size()];
        for (int r = 0; r < values.length; r++)
        {
            values[r] = ByteBuffer.wrap(all.get(r)).getDouble();
        }
        return values;
    }

    /**
     * Sets what to run, over and over, while this rank waits for its peers (null: just wait). An endpoint whose
     * progress is driven by its caller supplies one, so that a rank waiting here still answers its peers (acks),
     * and so that the wait spins instead of sleeping.
     */
    public void progressHook(final Runnable hook)
    {
        plane.progressHook(hook);
    }

    /**
     * Tells {@code listener} (rank, why) when the launcher reports a rank dead (PMIx events); runs on the
     * launcher library's thread and must not block. Without PMIx it is never called: a dead rank shows as its
     * lost control connection or its silent endpoint.
     */
    void onRankDeath(final BiConsumer<Integer, String> listener)
    {
        plane.onRankDeath(listener);
    }

    private void checkRoot(final int root)
    {
        if (root < 0 || root >= size())
        {
            throw new IllegalArgumentException("root " + root + " is not a rank of this job of " + size());
        }
    }

    private static void checkPayload(final byte[] bytes)
    {
        if (bytes.length > MAX_PAYLOAD_BYTES)
        {
            throw new IllegalArgumentException("control payload of " + bytes.length + " bytes: at most " +
                MAX_PAYLOAD_BYTES + " (the job's control plane is for small messages)");
        }
    }

    @Override
    public void close()
    {
        plane.close();
    }
}
