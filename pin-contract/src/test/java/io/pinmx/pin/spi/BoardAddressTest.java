package io.pinmx.pin.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class BoardAddressTest
{
    @Test
    void udpParsesFormatsAndAddressesEndpoints() throws Exception
    {
        final BoardAddress board = BoardAddress.parse("udp:127.0.0.1:40000");
        assertSame(BoardAddress.Kind.UDP, board.kind());
        assertEquals(InetAddress.getByName("127.0.0.1"), board.inetAddress());
        assertEquals(40000, board.basePort());
        assertEquals("udp:127.0.0.1:40000", board.toString());
        assertEquals(new InetSocketAddress("127.0.0.1", 40003), board.endpointSocketAddress(3));
        assertEquals(board, BoardAddress.udp(InetAddress.getByName("127.0.0.1"), 40000));
        assertEquals(board.hashCode(), BoardAddress.parse(board.toString()).hashCode());
        assertNotEquals(board, BoardAddress.parse("udp:127.0.0.1:40001"));
        assertNotEquals(board, BoardAddress.parse("udp:127.0.0.2:40000"));
    }

    @Test
    void ipv6LiteralsUseBrackets()
    {
        final BoardAddress board = BoardAddress.parse("udp:[::1]:5000");
        assertEquals("udp:[0:0:0:0:0:0:0:1]:5000", board.toString());
        assertEquals(board, BoardAddress.parse(board.toString()));
    }

    @Test
    void ethernetParsesFormatsAndCopiesTheMac()
    {
        final BoardAddress board = BoardAddress.parse("eth:02:00:00:00:00:01");
        assertSame(BoardAddress.Kind.ETHERNET, board.kind());
        assertArrayEquals(new byte[]{ 2, 0, 0, 0, 0, 1 }, board.mac());
        assertEquals("eth:02:00:00:00:00:01", board.toString());
        assertEquals(board, BoardAddress.parse("eth:02:00:00:00:00:01"));
        assertEquals(board, BoardAddress.parse("eth:02:00:00:00:00:01".toUpperCase().replace("ETH", "eth")));
        board.mac()[0] = 9;
        assertEquals("eth:02:00:00:00:00:01", board.toString());
        assertNotEquals(board, BoardAddress.parse("eth:02:00:00:00:00:02"));
    }

    @Test
    void kindSpecificAccessorsRefuseTheOtherKind()
    {
        final BoardAddress eth = BoardAddress.parse("eth:02:00:00:00:00:01");
        final IllegalStateException ex = assertThrows(IllegalStateException.class, eth::basePort);
        assertTrue(ex.getMessage().contains("eth:02:00:00:00:00:01 is ETHERNET, not UDP"), ex.getMessage());
        assertThrows(IllegalStateException.class, () -> BoardAddress.parse("udp:10.0.0.1:1").mac());
        assertNotEquals(eth, BoardAddress.parse("udp:10.0.0.1:1"));
    }

    @Test
    void badTextIsRefusedNamingWhatIsWrong()
    {
        assertMessage("tcp:1.2.3.4:5", "expected udp:HOST_IP:BASE_PORT or eth:");
        assertMessage("udp:1.2.3.4", "expected udp:HOST_IP:BASE_PORT");
        assertMessage("udp:1.2.3.4:", "expected udp:HOST_IP:BASE_PORT");
        assertMessage("udp:1.2.3.4:x", "port 'x' is not a number");
        assertMessage("udp:1.2.3.4:0", "port 0 not in 1..65535");
        assertMessage("udp:1.2.3.4:65536", "port 65536 not in 1..65535");
        assertMessage("udp:localhost:4000", "'localhost' is not an IP address literal");
        assertMessage("udp:1.2.3.256:4000", "'1.2.3.256' is not an IP address literal");
        assertMessage("udp:::1:4000", "IPv6 literals must be in brackets");
        assertMessage("udp:[::1:4000", "unterminated IPv6 literal");
        assertMessage("eth:02:00:00:00:00", "expected eth:XX:XX:XX:XX:XX:XX");
        assertMessage("eth:02:00:00:00:00:zz", "bad MAC address '02:00:00:00:00:zz'");
        assertThrows(IllegalArgumentException.class, () -> BoardAddress.parse(null));
        assertThrows(IllegalArgumentException.class, () -> BoardAddress.ethernet(new byte[5]));
        assertThrows(IllegalArgumentException.class, () -> BoardAddress.udp(null, 1));
    }

    @Test
    void endpointPortsPastTheTopAreRefused()
    {
        final BoardAddress board = BoardAddress.parse("udp:127.0.0.1:65535");
        assertEquals(65535, board.endpointSocketAddress(0).getPort());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> board.endpointSocketAddress(1));
        assertTrue(ex.getMessage().contains("port 65536 out of range"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> board.endpointSocketAddress(-1));
    }

    private static void assertMessage(final String text, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> BoardAddress.parse(text));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
        assertTrue(ex.getMessage().contains("'" + text + "'"), ex.getMessage());
    }
}
