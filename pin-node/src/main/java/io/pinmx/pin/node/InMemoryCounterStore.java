package io.pinmx.pin.node;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Counter store of one process, for tests and single-process use.
 */
public final class InMemoryCounterStore implements CounterStore
{
    private final ConcurrentMap<String, PublishedCounters> snapshots = new ConcurrentHashMap<>();

    @Override
    public void publish(final PublishedCounters counters)
    {
        snapshots.put(counters.endpoint(), counters);
    }

    @Override
    public Optional<PublishedCounters> get(final String endpoint)
    {
        return Optional.ofNullable(snapshots.get(endpoint));
    }

    @Override
    public boolean remove(final String endpoint)
    {
        return null != snapshots.remove(endpoint);
    }

    @Override
    public List<PublishedCounters> list()
    {
        return snapshots.values().stream().sorted(Comparator.comparing(PublishedCounters::endpoint)).toList();
    }

    @Override
    public void close()
    {
        snapshots.clear();
    }
}
