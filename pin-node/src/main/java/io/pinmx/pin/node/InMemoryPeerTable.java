package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Peer table of one process, for tests and single-process use.
 */
public final class InMemoryPeerTable implements PeerTable
{
    private final ConcurrentMap<String, HostBoards> hosts = new ConcurrentHashMap<>();

    @Override
    public HostBoards put(final String host, final int boardIndex, final BoardAddress address)
    {
        HostBoards.requireHostName(host);
        HostBoards.requireBoardIndex(boardIndex);
        if (null == address)
        {
            throw new IllegalArgumentException("peer table: address of host " + host + " board " + boardIndex + " is null");
        }
        return hosts.compute(host, (name, old) ->
            (null == old ? new HostBoards(name, new TreeMap<>()) : old).with(boardIndex, address));
    }

    @Override
    public Optional<HostBoards> get(final String host)
    {
        return Optional.ofNullable(hosts.get(host));
    }

    @Override
    public boolean remove(final String host)
    {
        return null != hosts.remove(host);
    }

    @Override
    public boolean remove(final String host, final int boardIndex)
    {
        final boolean[] removed = new boolean[1];
        hosts.computeIfPresent(host, (name, old) ->
        {
            removed[0] = old.boards().containsKey(boardIndex);
            final HostBoards left = old.without(boardIndex);
            return left.boards().isEmpty() ? null : left;
        });
        return removed[0];
    }

    @Override
    public List<HostBoards> list()
    {
        return hosts.values().stream().sorted(Comparator.comparing(HostBoards::host)).toList();
    }

    @Override
    public void close()
    {
        hosts.clear();
    }

    @Override
    public String toString()
    {
        return "in memory";
    }
}
