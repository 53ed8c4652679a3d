package io.pinmx.pin.user;

import io.pinmx.pin.node.ChronicleFlags;
import io.pinmx.pin.node.ChronicleMapCounterStore;
import io.pinmx.pin.node.CounterStore;
import io.pinmx.pin.node.PendingCounters;
import io.pinmx.pin.node.PublishedCounters;
import io.pinmx.pin.provider.BackgroundThread;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.EndpointAddress;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Publishes one endpoint's counters to the node-wide {@link CounterStore} so {@code pinmx-admin counters}
 * shows live endpoints. Called by the endpoint's progress agent only when idle, at most every
 * {@link #INTERVAL_NS}, and once at close. The endpoints of a process share one store per file, opened on a
 * {@link BackgroundThread}: the first open in a JVM generates and compiles Chronicle code, seconds of CPU, and an
 * endpoint must not wait for its monitoring, nor share its CPU with it. Publications before the store is open are
 * skipped (the next due one carries the same live counters); an endpoint closed before that leaves its final counters
 * in a {@link PendingCounters} file, which the store's next opener moves in. In
 * a JVM without the flags Chronicle Map needs ({@link ChronicleFlags}) nothing is published and Chronicle is never
 * loaded: the endpoint works all the same.
 */
final class CounterPublisher
{
    /** Least time between two publications of one endpoint. */
    static final long INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * Snapshots a store holds before its opener forgets those of processes that are gone: every endpoint ever
     * opened on the node leaves one, and a full store refuses new endpoints. Below it, finished jobs' final
     * counters stay for {@code pinmx-admin counters}.
     */
    static final int PRUNE_AT_SNAPSHOTS = (int)(ChronicleMapCounterStore.MAX_ENDPOINTS / 2);
    private static final System.Logger LOG = System.getLogger(CounterPublisher.class.getName());
    private static final Map<Path, SharedStore> STORES = new HashMap<>();
    /** A JVM without Chronicle's flags is told once, not once per endpoint; guarded by STORES. */
    private static boolean toldFlagsMissing;

    private final SharedStore shared;
    private final String name;
    private final DriverCounters counters;
    private long nextPublishNs;
    private boolean failed;

    private CounterPublisher(final SharedStore shared, final String name, final DriverCounters counters)
    {
        this.shared = shared;
        this.name = name;
        this.counters = counters;
    }

    /**
     * @param file     the node's counters file.
     * @param address  the endpoint's address.
     * @param counters its live counters.
     * @return the publisher, or null (logged once) when this JVM lacks Chronicle's flags. A store that cannot be
     * opened is logged once by its opener; its publishers then publish nothing: counters are for monitoring and
     * must not stop the endpoint.
     */
    static CounterPublisher open(final Path file, final EndpointAddress address, final DriverCounters counters)
    {
        final SharedStore shared;
        synchronized (STORES)
        {
            if (!ChronicleFlags.missing().isEmpty())
            {
                if (!toldFlagsMissing)
                {
                    toldFlagsMissing = true;
                    LOG.log(System.Logger.Level.INFO, "counters of this process's endpoints are not published to " +
                        file + " (pinmx-admin counters): the JVM lacks the flags Chronicle Map needs " +
                        "(`bin/pinmx-admin jvm-flags`)");
                }
                return null;
            }
            shared = STORES.computeIfAbsent(file, SharedStore::new);
            shared.users++;
        }
        return new CounterPublisher(shared, nameOf(address), counters);
    }

    /**
     * @param address an endpoint address.
     * @return its name in the store: host, pid, board and endpoint index.
     */
    static String nameOf(final EndpointAddress address)
    {
        String host;
        try
        {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (final UnknownHostException ex)
        {
            host = "unknown-host";
        }
        return host + "/pid" + ProcessHandle.current().pid() + "/" + address.board() + "/" + address.endpointIndex();
    }

    /**
     * @return the endpoint's name in the store.
     */
    String name()
    {
        return name;
    }

    /**
     * Publish when the last publication is at least {@link #INTERVAL_NS} old.
     *
     * @param nowNs {@link System#nanoTime()}.
     */
    void publishIfDue(final long nowNs)
    {
        if (nowNs - nextPublishNs >= 0)
        {
            nextPublishNs = nowNs + INTERVAL_NS;
            publish();
        }
    }

    /**
     * Publish the final counters and release the shared store. When the store is not open yet (a job shorter than a
     * fresh JVM's first open), the final counters go to a {@link PendingCounters} file in microseconds, which the
     * store's next opener moves in: an endpoint's close never waits for its monitoring.
     */
    void close()
    {
        final boolean last;
        synchronized (STORES)
        {
            last = --shared.users == 0;
            if (last)
            {
                STORES.remove(shared.file);
            }
        }
        final Future.State state = shared.store.state();
        if (state == Future.State.SUCCESS)
        {
            final CounterStore store = shared.store.resultNow();
            publishTo(store);
            if (last)
            {
                store.close();
            }
            return;
        }
        if (state == Future.State.RUNNING)
        {
            if (!failed)
            {
                publishPending();
            }
            if (last)
            {
                shared.store.thenAccept(CounterStore::close);
            }
        }
    }

    private void publishPending()
    {
        try
        {
            PendingCounters.write(shared.file, PublishedCounters.of(name, counters));
        }
        catch (final UncheckedIOException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "endpoint " + name + ": final counters not published: " +
                ex.getMessage());
        }
    }

    private void publish()
    {
        if (shared.store.state() == Future.State.SUCCESS)
        {
            publishTo(shared.store.resultNow());
        }
    }

    private void publishTo(final CounterStore store)
    {
        if (failed)
        {
            return;
        }
        try
        {
            store.publish(name, counters);
        }
        catch (final RuntimeException ex)
        {
            // one warning, not one per 100 ms: the endpoint carries on unmonitored
            failed = true;
            LOG.log(System.Logger.Level.WARNING, "endpoint " + name + ": publishing counters to " + shared.file +
                " failed, no longer published: " + ex);
        }
    }

    /** Forget the snapshots of processes that are gone once the store holds {@link #PRUNE_AT_SNAPSHOTS}. */
    static void pruneIfCrowded(final CounterStore store)
    {
        final List<PublishedCounters> snapshots = store.list();
        if (snapshots.size() >= PRUNE_AT_SNAPSHOTS)
        {
            snapshots.stream().filter(snapshot -> !snapshot.publisherAlive())
                .forEach(snapshot -> store.remove(snapshot.endpoint()));
        }
    }

    /** One open (or opening) store per file and JVM; {@link #users} is guarded by {@link #STORES}. */
    private static final class SharedStore
    {
        final Path file;
        final CompletableFuture<CounterStore> store = new CompletableFuture<>();
        int users;

        SharedStore(final Path file)
        {
            this.file = file;
            BackgroundThread.start("pinmx-counters-open", this::openStore);
        }

        private void openStore()
        {
            try
            {
                final CounterStore opened = ChronicleMapCounterStore.open(file);
                movePendingInto(opened);
                pruneIfCrowded(opened);
                store.complete(opened);
            }
            catch (final RuntimeException ex)
            {
                LOG.log(System.Logger.Level.WARNING, "counters of this process's endpoints are not published, " +
                    "cannot open " + file + ": " + ex.getMessage());
                store.completeExceptionally(ex);
            }
        }

        private void movePendingInto(final CounterStore opened)
        {
            try
            {
                PendingCounters.moveInto(opened, file);
            }
            catch (final RuntimeException ex)
            {
                LOG.log(System.Logger.Level.WARNING, "final counters of closed endpoints left in " +
                    PendingCounters.directoryOf(file) + ": " + ex.getMessage());
            }
        }
    }
}
