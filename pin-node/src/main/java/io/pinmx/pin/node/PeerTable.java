package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import java.util.List;
import java.util.Optional;

/**
 * Node-wide table of peer hosts and their boards, shared by the processes of one host. Updates
 * of one host are atomic: concurrent puts of different boards of one host are all kept.
 */
public interface PeerTable extends AutoCloseable
{
    /**
     * Add or replace one board of a host.
     *
     * @param host       host name.
     * @param boardIndex board index, 0..255.
     * @param address    board address.
     * @return the host's boards after the update.
     */
    HostBoards put(String host, int boardIndex, BoardAddress address);

    /**
     * @param host host name.
     * @return the host's boards, if the host is known.
     */
    Optional<HostBoards> get(String host);

    /**
     * @param host       host name.
     * @param boardIndex board index.
     * @return the board's address, if known.
     */
    default Optional<BoardAddress> board(final String host, final int boardIndex)
    {
        return get(host).map(boards -> boards.boards().get(boardIndex));
    }

    /**
     * @param host host name.
     * @return true when the host was known and is now removed with all its boards.
     */
    boolean remove(String host);

    /**
     * @param host       host name.
     * @param boardIndex board index.
     * @return true when the board was known and is now removed; a host left without boards is removed.
     */
    boolean remove(String host, int boardIndex);

    /**
     * @return every host, sorted by name.
     */
    List<HostBoards> list();

    /**
     * Release the table (unmap the shared file); the entries stay for other processes.
     */
    @Override
    void close();
}
