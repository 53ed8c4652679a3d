package io.pinmx.pin.admin;

import io.pinmx.pin.node.ChronicleMapPeerTable;
import io.pinmx.pin.node.HostBoards;
import io.pinmx.pin.node.PeerTable;
import io.pinmx.pin.spi.BoardAddress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code peers}, {@code peers add}, {@code peers remove}: the host's peer table (host name to boards).
 */
final class PeersCommand
{
    private final NodeFile nodeFile;
    private final Path file;

    PeersCommand(final NodeFile nodeFile)
    {
        this.nodeFile = nodeFile;
        this.file = nodeFile.path();
    }

    Report list()
    {
        if (!nodeFile.readable("--peers-file"))
        {
            return new Report(JsonWriter.object("file", file.toString(), "peers", List.of()),
                "no peers: no peer table at " + file + " (peers add creates it)\n");
        }
        try (PeerTable table = ChronicleMapPeerTable.open(file))
        {
            final List<Object> peers = new ArrayList<>();
            final StringBuilder text = new StringBuilder();
            final List<HostBoards> hosts = table.list();
            if (hosts.isEmpty())
            {
                text.append("no peers in ").append(file).append('\n');
            }
            for (final HostBoards host : hosts)
            {
                for (final Map.Entry<Integer, BoardAddress> board : host.boards().entrySet())
                {
                    peers.add(peer(host.host(), board.getKey(), board.getValue()));
                    text.append(host.host()).append(' ').append(board.getKey()).append(' ').append(board.getValue())
                        .append('\n');
                }
            }
            final Map<String, Object> json = new LinkedHashMap<>();
            json.put("file", file.toString());
            json.put("peers", peers);
            return new Report(json, text.toString());
        }
    }

    Report add(final List<String> args)
    {
        if (args.size() < 2 || args.size() > 3)
        {
            throw new UsageException("peers add: expected HOST BOARD_ADDRESS [BOARD_INDEX], got " + describe(args));
        }
        final String host = PinmxAdmin.checked(() -> HostBoards.requireHostName(args.get(0)));
        final BoardAddress address = PinmxAdmin.checked(() -> BoardAddress.parse(args.get(1)));
        final Integer boardIndex = args.size() == 3 ? boardIndex(args.get(2)) : null;
        try (PeerTable table = ChronicleMapPeerTable.open(file))
        {
            final int index = null != boardIndex ? boardIndex :
                table.get(host).map(HostBoards::nextFreeBoardIndex).orElse(0);
            table.put(host, index, address);
            return new Report(JsonWriter.object("added", peer(host, index, address)),
                "added " + host + " " + index + " " + address + "\n");
        }
    }

    Report remove(final List<String> args)
    {
        if (args.isEmpty() || args.size() > 2)
        {
            throw new UsageException("peers remove: expected HOST [BOARD_INDEX], got " + describe(args));
        }
        final String host = PinmxAdmin.checked(() -> HostBoards.requireHostName(args.get(0)));
        final Integer boardIndex = args.size() == 2 ? boardIndex(args.get(1)) : null;
        try (PeerTable table = ChronicleMapPeerTable.open(file))
        {
            final Map<String, Object> removed = new LinkedHashMap<>();
            removed.put("host", host);
            if (null == boardIndex)
            {
                if (!table.remove(host))
                {
                    throw new IllegalStateException("no host " + host + " in " + file);
                }
                return new Report(JsonWriter.object("removed", removed), "removed " + host + "\n");
            }
            if (!table.remove(host, boardIndex))
            {
                throw new IllegalStateException("no board " + boardIndex + " of host " + host + " in " + file);
            }
            removed.put("board", boardIndex);
            return new Report(JsonWriter.object("removed", removed), "removed " + host + " " + boardIndex + "\n");
        }
    }

    private static Map<String, Object> peer(final String host, final int board, final BoardAddress address)
    {
        final Map<String, Object> peer = new LinkedHashMap<>();
        peer.put("host", host);
        peer.put("board", board);
        peer.put("address", address.toString());
        return peer;
    }

    private static int boardIndex(final String text)
    {
        final int index;
        try
        {
            index = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("board index '" + text + "' is not a number");
        }
        return PinmxAdmin.checked(() -> HostBoards.requireBoardIndex(index));
    }

    private static String describe(final List<String> args)
    {
        return args.isEmpty() ? "nothing" : "'" + String.join(" ", args) + "'";
    }
}
