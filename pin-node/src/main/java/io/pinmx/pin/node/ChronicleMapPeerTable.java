package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * Peer table in a Chronicle Map persisted file shared by every process of the host: host name
 * to its boards, stored as text {@code INDEX=ADDRESS;...}. Updates of one host run under the
 * map's per-segment lock, which holds across processes.
 */
public final class ChronicleMapPeerTable implements PeerTable
{
    /** Most hosts the file holds. */
    public static final long MAX_HOSTS = 4096;

    private final ChronicleMap<CharSequence, CharSequence> map;
    private final Path file;

    private ChronicleMapPeerTable(final Path file, final Duration openTimeout)
    {
        this.file = file;
        this.map = NodeFiles.openMap(file, "pinmx-peers", NodeFiles.PEERS_FILE_PROPERTY, MAX_HOSTS,
            "node-0042.cluster.example.org",
            "0=udp:192.168.100.200:40000;1=eth:02:00:00:00:00:01", openTimeout);
    }

    /**
     * @param file the persisted file; created with its directory if absent.
     * @return the table.
     */
    public static ChronicleMapPeerTable open(final Path file)
    {
        return open(file, NodeFiles.OPEN_TIMEOUT);
    }

    /**
     * @param file        the persisted file; created with its directory if absent.
     * @param openTimeout longest wait for the file to open.
     * @return the table.
     */
    public static ChronicleMapPeerTable open(final Path file, final Duration openTimeout)
    {
        return new ChronicleMapPeerTable(file, openTimeout);
    }

    /**
     * @return the table at {@link NodeFiles#peersFile()}.
     */
    public static ChronicleMapPeerTable openDefault()
    {
        return open(NodeFiles.peersFile());
    }

    /**
     * @return the persisted file.
     */
    public Path file()
    {
        return file;
    }

    @Override
    public HostBoards put(final String host, final int boardIndex, final BoardAddress address)
    {
        HostBoards.requireHostName(host);
        HostBoards.requireBoardIndex(boardIndex);
        if (null == address)
        {
            throw new IllegalArgumentException("peer table: address of host " + host + " board " + boardIndex + " is null");
        }
        final CharSequence stored = map.compute(host, (name, old) ->
            (null == old ? new HostBoards(host, new TreeMap<>()) : HostBoards.decode(host, old.toString()))
                .with(boardIndex, address).encodeBoards());
        return HostBoards.decode(host, stored.toString());
    }

    @Override
    public Optional<HostBoards> get(final String host)
    {
        final CharSequence stored = map.get(host);
        return null == stored ? Optional.empty() : Optional.of(HostBoards.decode(host, stored.toString()));
    }

    @Override
    public boolean remove(final String host)
    {
        return null != map.remove(host);
    }

    @Override
    public boolean remove(final String host, final int boardIndex)
    {
        final boolean[] removed = new boolean[1];
        map.computeIfPresent(host, (name, old) ->
        {
            final HostBoards boards = HostBoards.decode(host, old.toString());
            removed[0] = boards.boards().containsKey(boardIndex);
            final HostBoards left = boards.without(boardIndex);
            return left.boards().isEmpty() ? null : left.encodeBoards();
        });
        return removed[0];
    }

    @Override
    public List<HostBoards> list()
    {
        final List<HostBoards> hosts = new ArrayList<>();
        map.forEach((host, boards) -> hosts.add(HostBoards.decode(host.toString(), boards.toString())));
        hosts.sort(Comparator.comparing(HostBoards::host));
        return hosts;
    }

    @Override
    public void close()
    {
        map.close();
    }

    @Override
    public String toString()
    {
        return file.toString();
    }
}
