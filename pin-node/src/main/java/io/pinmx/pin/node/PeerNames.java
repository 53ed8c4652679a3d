package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;

/**
 * Host names to board addresses through the node's {@link PeerTable}, as Open-MX's {@code mx_hostname_to_nic_id}
 * does through its peer table: {@code HOST} is board 0 of that host, {@code HOST:BOARD} the given board. The table
 * is filled by {@code pinmx-admin peers add HOST BOARD_ADDRESS [BOARD_INDEX]} on every host (as
 * {@code omx_init_peers} does). For programs that connect endpoints themselves; the ranks of a job learn each
 * other's addresses through the job's bootstrap and need no table.
 */
public final class PeerNames
{
    private PeerNames()
    {
    }

    /**
     * @param table the peer table.
     * @param name  {@code HOST} or {@code HOST:BOARD_INDEX}.
     * @return the board's address.
     * @throws IllegalArgumentException naming the host, the board and the table when it does not know them, or
     *                                  what is wrong with the name.
     */
    public static BoardAddress board(final PeerTable table, final String name)
    {
        if (null == name)
        {
            throw new IllegalArgumentException("peer name is null: expected HOST or HOST:BOARD_INDEX");
        }
        final int colon = name.lastIndexOf(':');
        final String host = colon < 0 ? name : name.substring(0, colon);
        final int boardIndex;
        try
        {
            boardIndex = colon < 0 ? 0 : Integer.parseInt(name.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("peer name '" + name + "': board index '" + name.substring(colon + 1) +
                "' is not a number (expected HOST or HOST:BOARD_INDEX)", ex);
        }
        HostBoards.requireHostName(host);
        HostBoards.requireBoardIndex(boardIndex);
        final HostBoards boards = table.get(host).orElseThrow(() -> new IllegalArgumentException("peer name '" + name +
            "': host " + host + " is not in the peer table " + table + " (add it: pinmx-admin peers add " + host +
            " BOARD_ADDRESS)"));
        final BoardAddress board = boards.boards().get(boardIndex);
        if (null == board)
        {
            throw new IllegalArgumentException("peer name '" + name + "': host " + host + " has no board " +
                boardIndex + " in the peer table " + table + " (its boards: " + boards.boards().keySet() + ")");
        }
        return board;
    }

    /**
     * @param table         the peer table.
     * @param name          {@code HOST} or {@code HOST:BOARD_INDEX}.
     * @param endpointIndex the endpoint on that board.
     * @return the address to connect to (any session).
     * @throws IllegalArgumentException as {@link #board(PeerTable, String)}, or naming a bad endpoint index.
     */
    public static EndpointAddress endpoint(final PeerTable table, final String name, final int endpointIndex)
    {
        return new EndpointAddress(board(table, name), endpointIndex, 0);
    }
}
