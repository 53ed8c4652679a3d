package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointConfig;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One host of the peer table and its boards by board index.
 *
 * @param host   host name.
 * @param boards board index to board address, sorted by index; unmodifiable.
 */
public record HostBoards(String host, SortedMap<Integer, BoardAddress> boards)
{
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

    /**
     * @throws IllegalArgumentException naming a bad host name or board index.
     */
    public HostBoards
    {
        requireHostName(host);
        final TreeMap<Integer, BoardAddress> copy = new TreeMap<>();
        for (final Map.Entry<Integer, BoardAddress> entry : boards.entrySet())
        {
            copy.put(requireBoardIndex(entry.getKey()), entry.getValue());
        }
        boards = Collections.unmodifiableSortedMap(copy);
    }

    /**
     * @param host host name to check.
     * @return the host name.
     * @throws IllegalArgumentException when it is not a plain host name (letters, digits, '.', '_', '-').
     */
    public static String requireHostName(final String host)
    {
        if (null == host || !HOST_NAME.matcher(host).matches())
        {
            throw new IllegalArgumentException("host name '" + host +
                "': expected 1-253 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return host;
    }

    /**
     * @param boardIndex board index to check.
     * @return the board index.
     * @throws IllegalArgumentException when outside 0..255.
     */
    public static int requireBoardIndex(final int boardIndex)
    {
        if (boardIndex < 0 || boardIndex > EndpointConfig.MAX_BOARD_INDEX)
        {
            throw new IllegalArgumentException(
                "board index " + boardIndex + " not in 0.." + EndpointConfig.MAX_BOARD_INDEX);
        }
        return boardIndex;
    }

    /**
     * @param boardIndex a board index.
     * @param address    its address.
     * @return a copy with that board added or replaced.
     */
    public HostBoards with(final int boardIndex, final BoardAddress address)
    {
        final TreeMap<Integer, BoardAddress> copy = new TreeMap<>(boards);
        copy.put(boardIndex, address);
        return new HostBoards(host, copy);
    }

    /**
     * @param boardIndex a board index.
     * @return a copy without that board.
     */
    public HostBoards without(final int boardIndex)
    {
        final TreeMap<Integer, BoardAddress> copy = new TreeMap<>(boards);
        copy.remove(boardIndex);
        return new HostBoards(host, copy);
    }

    /**
     * @return the lowest board index not in use.
     * @throws IllegalStateException when all 256 are used.
     */
    public int nextFreeBoardIndex()
    {
        for (int i = 0; i <= EndpointConfig.MAX_BOARD_INDEX; i++)
        {
            if (!boards.containsKey(i))
            {
                return i;
            }
        }
        throw new IllegalStateException("host " + host + " already has " + boards.size() + " boards");
    }

    /**
     * @return the boards as stored text: {@code INDEX=ADDRESS} pairs separated by ';'.
     */
    String encodeBoards()
    {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<Integer, BoardAddress> entry : boards.entrySet())
        {
            if (!text.isEmpty())
            {
                text.append(';');
            }
            text.append(entry.getKey()).append('=').append(entry.getValue());
        }
        return text.toString();
    }

    /**
     * @param host host name.
     * @param text stored text from {@link #encodeBoards()}.
     * @return the host's boards.
     * @throws IllegalArgumentException naming the host and the bad text.
     */
    static HostBoards decode(final String host, final String text)
    {
        final TreeMap<Integer, BoardAddress> boards = new TreeMap<>();
        if (!text.isEmpty())
        {
            for (final String pair : text.split(";"))
            {
                final int equals = pair.indexOf('=');
                try
                {
                    boards.put(Integer.parseInt(pair.substring(0, equals)), BoardAddress.parse(pair.substring(equals + 1)));
                }
                catch (final RuntimeException ex)
                {
                    throw new IllegalArgumentException("peer table entry of host " + host + ": bad board '" + pair + "'", ex);
                }
            }
        }
        return new HostBoards(host, boards);
    }
}
