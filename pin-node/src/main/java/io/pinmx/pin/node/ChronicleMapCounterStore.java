package io.pinmx.pin.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * Counter store in a Chronicle Map persisted file shared by every process of the host: endpoint
 * name to the text form of its last snapshot.
 */
public final class ChronicleMapCounterStore implements CounterStore
{
    /** Most endpoints the file holds. */
    public static final long MAX_ENDPOINTS = 1024;

    private final ChronicleMap<CharSequence, CharSequence> map;
    private final Path file;

    private ChronicleMapCounterStore(final Path file, final Duration openTimeout)
    {
        this.file = file;
        this.map = NodeFiles.openMap(file, "pinmx-counters", NodeFiles.COUNTERS_FILE_PROPERTY, MAX_ENDPOINTS,
            "udp:192.168.100.200:40000/12",
            "pid=1234567;at=1795000000000;FRAMES_SENT_TINY=123456789;FRAMES_RECEIVED_TINY=123456789;" +
            "FRAMES_SENT_MEDIUM_FRAG=1234567;FRAMES_RECEIVED_MEDIUM_FRAG=1234567;FRAMES_SENT_PULL=123456;" +
            "FRAMES_RECEIVED_PULL_REPLY=12345678;PULLS_STARTED=12345;PULLS_DONE=12345;PULL_BYTES=123456789012;" +
            "FRAMES_SENT_ACK=1234567;FRAMES_RECEIVED_ACK=1234567;PULL_FRAMES_RECEIVED=12345678", openTimeout);
    }

    /**
     * @param file the persisted file; created with its directory if absent.
     * @return the store.
     */
    public static ChronicleMapCounterStore open(final Path file)
    {
        return open(file, NodeFiles.OPEN_TIMEOUT);
    }

    /**
     * @param file        the persisted file; created with its directory if absent.
     * @param openTimeout longest wait for the file to open.
     * @return the store.
     */
    public static ChronicleMapCounterStore open(final Path file, final Duration openTimeout)
    {
        return new ChronicleMapCounterStore(file, openTimeout);
    }

    /**
     * @return the store at {@link NodeFiles#countersFile()}.
     */
    public static ChronicleMapCounterStore openDefault()
    {
        return open(NodeFiles.countersFile());
    }

    /**
     * @return the persisted file.
     */
    public Path file()
    {
        return file;
    }

    @Override
    public void publish(final PublishedCounters counters)
    {
        map.put(counters.endpoint(), counters.encode());
    }

    @Override
    public Optional<PublishedCounters> get(final String endpoint)
    {
        final CharSequence stored = map.get(endpoint);
        return null == stored ? Optional.empty() : Optional.of(PublishedCounters.decode(endpoint, stored.toString()));
    }

    @Override
    public boolean remove(final String endpoint)
    {
        return null != map.remove(endpoint);
    }

    @Override
    public List<PublishedCounters> list()
    {
        final List<PublishedCounters> snapshots = new ArrayList<>();
        map.forEach((endpoint, text) -> snapshots.add(PublishedCounters.decode(endpoint.toString(), text.toString())));
        snapshots.sort(Comparator.comparing(PublishedCounters::endpoint));
        return snapshots;
    }

    @Override
    public void close()
    {
        map.close();
    }
}
