package io.pinmx.job;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The job's control plane on the launcher's PMIx server: no bootstrap file, no rank-0 socket. Every collective
 * is the modex: each contributing rank puts its bytes under a key of its own collective ("pinmx.N.KIND", N
 * counting the job's collectives, so a later collective never reads an earlier one's value), commits, and a
 * PMIx_Fence with data collection brings every committed value to every rank's server; the ranks that need
 * them then get them locally. The barrier is a fence without data. The servers do the fan-in and fan-out
 * along their own tree (Open MPI's daemons, Slurm's stepds), so no rank handles every other rank's bytes.
 * Values stay in the servers' stores until the job ends: this plane is for set-up, not for data.
 * <p>
 * The PMIx calls run on one helper thread while the caller waits: it drives the progress hook meanwhile (a
 * caller-driven endpoint keeps answering its peers) and fails at once naming the rank when PMIx reports a
 * rank's death. A call that fails without such a report (a fence the dead rank never joins) fails naming the rank
 * {@link DeadRankSearch} finds ended, with PMIx's status; a wait that lasts looks for ended ranks now and then, since
 * a fence may wait for ever on a rank that died on another node.
 */
final class PmixExchange implements ControlPlane
{
    private static final long WAIT_SLICE_MS = 10;
    /** How long a failed collective looks for the rank whose end failed it: the launcher records it in seconds. */
    private static final long DEAD_RANK_SEARCH_MS = 5_000;
    /**
     * A collective waiting this long looks for ended ranks, then at doubling intervals up to
     * {@link #MAX_LOOK_INTERVAL_NS}: Open MPI's fence waits for ever on a rank that died on another node. Each look
     * is one query to the launcher, so a slow start of many ranks asks it only a few times.
     */
    private static final long FIRST_LOOK_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long MAX_LOOK_INTERVAL_NS = TimeUnit.SECONDS.toNanos(30);
    /** Each rank's pid, put at join: this node's ranks by their processes where the launcher keeps no table. */
    private static final String PID_KEY = "pinmx.pid";

    private final PmixClient client;
    private final int size;
    private final int[] nodeRanks;
    private final ExecutorService caller;
    /** The process table's queries, apart from {@link #caller}: they run while a fence blocks it. */
    private final ExecutorService queries;
    private final DeadRankSearch deadRanks;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
    private final List<BiConsumer<Integer, String>> deathListeners = new CopyOnWriteArrayList<>();
    private volatile String death;
    /** Set from any thread (an endpoint opened on demand installs it): read at each wait. */
    private volatile Runnable progressHook;
    private volatile Future<?> lastCall;
    private volatile Future<?> lastQuery;
    private long collectives;

    private PmixExchange(final PmixClient client, final int size, final int[] nodeRanks)
    {
        this.client = client;
        this.size = size;
        this.nodeRanks = nodeRanks;
        caller = helperThread("pinmx-pmix-rank-" + client.rank());
        queries = helperThread("pinmx-pmix-query-rank-" + client.rank());
        deadRanks = new DeadRankSearch(client.rank(), nodeRanks, () ->
        {
            final Future<List<PmixProcess>> query = queries.submit(this::processTable);
            lastQuery = query;
            return query;
        });
    }

    private static ExecutorService helperThread(final String name)
    {
        return Executors.newSingleThreadExecutor(task ->
        {
            final Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * PMIx_Init, then the job's size, this node's ranks and the death events.
     *
     * @throws IllegalStateException naming the PMIx call that failed and PMIx's text for why.
     */
    static PmixExchange join()
    {
        final PmixClient client = PmixClient.init();
        try
        {
            final PmixExchange exchange = new PmixExchange(client, client.jobSize(), client.localPeers());
            client.putAndCommit(PID_KEY, ByteBuffer.allocate(Integer.BYTES)
                .putInt(Math.toIntExact(ProcessHandle.current().pid())).array());
            client.onRankDeath(exchange::rankDied);
            // A program that keeps its job to the end (MPJ's device) still leaves finalized: the launcher takes a
            // rank that exits without PMIx_Finalize for a failed one.
            Runtime.getRuntime().addShutdownHook(new Thread(exchange::close, "pinmx-pmix-finalize"));
            return exchange;
        }
        catch (final RuntimeException ex)
        {
            try
            {
                client.close();
            }
            catch (final RuntimeException closing)
            {
                ex.addSuppressed(closing);
            }
            throw ex;
        }
    }

    int rank()
    {
        return client.rank();
    }

    /**
     * The launcher's process table; where its server refuses one (Slurm's), this node's ranks with the pids they
     * put at join, whose processes {@link DeadRankSearch} then judges (their state unknown to the launcher).
     */
    private List<PmixProcess> processTable()
    {
        try
        {
            return client.processTable();
        }
        catch (final IllegalStateException refused)
        {
            final List<PmixProcess> node = new ArrayList<>(nodeRanks.length);
            for (final int rank : nodeRanks)
            {
                node.add(new PmixProcess(rank, null, ByteBuffer.wrap(client.getBytes(rank, PID_KEY)).getInt(),
                    PmixProcess.STATE_UNKNOWN));
            }
            return node;
        }
    }

    int size()
    {
        return size;
    }

    String namespace()
    {
        return client.namespace();
    }

    /** Runs on PMIx's thread: remembers the first death for every wait, and tells the listeners. */
    private void rankDied(final int rank, final String event)
    {
        recordDeath(rank, "rank " + rank + " died (" + event + ")");
    }

    private void recordDeath(final int rank, final String why)
    {
        if (null == death)
        {
            death = why;
        }
        for (final BiConsumer<Integer, String> listener : deathListeners)
        {
            listener.accept(rank, why);
        }
    }

    @Override
    public void onRankDeath(final BiConsumer<Integer, String> listener)
    {
        deathListeners.add(listener);
    }

    @Override
    public List<byte[]> allGather(final byte[] mine)
    {
        final String key = nextKey("allgather");
        return await("all-gather", () ->
        {
            client.putAndCommit(key, mine);
            client.fence(true);
            return everyRanks(key);
        });
    }

    @Override
    public void barrier()
    {
        nextKey("barrier");
        await("barrier", () ->
        {
            client.fence(false);
            return null;
        });
    }

    @Override
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        final String key = nextKey("broadcast");
        return await("broadcast from rank " + root, () ->
        {
            if (client.rank() == root)
            {
                client.putAndCommit(key, bytes);
            }
            client.fence(true);
            return client.rank() == root ? bytes : client.getBytes(root, key);
        });
    }

    @Override
    public List<byte[]> gather(final int root, final byte[] mine)
    {
        final String key = nextKey("gather");
        return await("gather to rank " + root, () ->
        {
            client.putAndCommit(key, mine);
            client.fence(true);
            return client.rank() == root ? everyRanks(key) : List.<byte[]>of();
        });
    }

    private String nextKey(final String kind)
    {
        return "pinmx." + collectives++ + "." + kind;
    }

    private List<byte[]> everyRanks(final String key)
    {
        final List<byte[]> all = new ArrayList<>(size);
        for (int r = 0; r < size; r++)
        {
            all.add(client.getBytes(r, key));
        }
        return all;
    }

    /**
     * Runs the PMIx calls on the helper thread; meanwhile runs the progress hook (or waits in slices), and
     * gives up naming the rank as soon as PMIx reports a death or a look finds a rank ended.
     */
    private <T> T await(final String what, final Supplier<T> calls)
    {
        failIfDead(what);
        final Future<T> result = call(calls::get);
        idle.reset();
        final long startedNs = System.nanoTime();
        long lookIntervalNs = FIRST_LOOK_NS;
        long nextLookNs = startedNs + lookIntervalNs;
        try
        {
            while (true)
            {
                if (System.nanoTime() - nextLookNs >= 0)
                {
                    failIfEnded(what, startedNs);
                    lookIntervalNs = Math.min(2 * lookIntervalNs, MAX_LOOK_INTERVAL_NS);
                    nextLookNs = System.nanoTime() + lookIntervalNs;
                }
                final Runnable hook = progressHook;
                try
                {
                    if (null == hook)
                    {
                        return result.get(WAIT_SLICE_MS, TimeUnit.MILLISECONDS);
                    }
                    if (result.isDone())
                    {
                        return result.get();
                    }
                    hook.run();
                    idle.idle();
                }
                catch (final TimeoutException ignored)
                {
                    // a slice without a result: look for a death, then wait on
                }
                failIfDead(what);
            }
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            final String status = cause instanceof RuntimeException ? cause.getMessage() : cause.toString();
            final String why = whoEnded();
            throw new IllegalStateException("job: rank " + client.rank() + " " + what + ": " + why + "; " + status,
                cause);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("job: rank " + client.rank() + " interrupted in " + what, ex);
        }
    }

    /** A look while the collective waits: fails it naming the ranks the launcher shows failed. */
    private void failIfEnded(final String what, final long startedNs)
    {
        final StringJoiner found = new StringJoiner("; ");
        for (final DeadRankSearch.EndedRank ended : deadRanks.look())
        {
            recordDeath(ended.rank(), ended.description());
            found.add(ended.description());
        }
        if (0 != found.length())
        {
            throw new IllegalStateException("job: rank " + client.rank() + " " + what + ": " + found + "; its PMIx_Fence " +
                "still waits after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs) + " ms");
        }
    }

    /** Starts PMIx calls on the helper thread; {@link #close} finalizes only once the last one returned. */
    private <T> Future<T> call(final Callable<T> calls)
    {
        final Future<T> result = caller.submit(calls);
        lastCall = result;
        return result;
    }

    /**
     * A failed collective is most often a rank's end: the launcher's report of it if one came, else the ranks
     * {@link DeadRankSearch} finds ended (each then told to the listeners as a death), else why none was named.
     */
    private String whoEnded()
    {
        final String reported = death;
        if (null != reported)
        {
            return reported;
        }
        final StringJoiner found = new StringJoiner("; ");
        for (final DeadRankSearch.EndedRank ended : deadRanks.search(DEAD_RANK_SEARCH_MS))
        {
            recordDeath(ended.rank(), ended.description());
            found.add(ended.description());
        }
        return 0 != found.length() ? found.toString() : "did a rank of the job end or fail? (" + deadRanks.why() + ")";
    }

    private void failIfDead(final String what)
    {
        final String why = death;
        if (null != why)
        {
            throw new IllegalStateException("job: rank " + client.rank() + " " + what + ": " + why);
        }
    }

    @Override
    public void progressHook(final Runnable hook)
    {
        progressHook = hook;
    }

    @Override
    public InetAddress controlAddress()
    {
        return null;
    }

    @Override
    public int[] nodeRanks()
    {
        return nodeRanks.clone();
    }

    /**
     * PMIx_Finalize, unless a call still blocks on the helper thread (a fence a dead rank never joins): then the
     * process leaves without it and the launcher sees it end unfinalized.
     */
    @Override
    public synchronized void close()
    {
        caller.shutdown();
        queries.shutdown();
        if ((null == lastCall || lastCall.isDone()) && (null == lastQuery || lastQuery.isDone()))
        {
            client.close();
        }
    }
}
