package io.pinmx.pin.node;

import io.pinmx.pin.spi.DriverCounters;
import java.util.List;
import java.util.Optional;

/**
 * Node-wide store of the counters endpoints publish, read by the admin CLI. Publishing replaces
 * the endpoint's previous snapshot.
 */
public interface CounterStore extends AutoCloseable
{
    /**
     * @param counters snapshot to store under its endpoint name.
     */
    void publish(PublishedCounters counters);

    /**
     * Snapshot live counters and publish them, stamped with this process and the current time.
     *
     * @param endpoint endpoint name.
     * @param counters live counters.
     */
    default void publish(final String endpoint, final DriverCounters counters)
    {
        publish(PublishedCounters.of(endpoint, counters));
    }

    /**
     * @param endpoint endpoint name.
     * @return its last snapshot, if any.
     */
    Optional<PublishedCounters> get(String endpoint);

    /**
     * @param endpoint endpoint name.
     * @return true when a snapshot was removed.
     */
    boolean remove(String endpoint);

    /**
     * @return every snapshot, sorted by endpoint name.
     */
    List<PublishedCounters> list();

    /**
     * Release the store; the snapshots stay for other processes.
     */
    @Override
    void close();
}
