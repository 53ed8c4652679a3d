package io.pinmx.mx.match;

import org.junit.jupiter.api.Test;

import static io.pinmx.mx.match.MatchInfo.ANY_SOURCE;
import static io.pinmx.mx.match.MatchInfo.MASK_ALL;
import static io.pinmx.mx.match.MatchInfo.MASK_ANY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatchQueueTest
{
    private final MatchQueue queue = new MatchQueue();

    private PostedReceive post(final String name, final int source, final long matchInfo, final long mask)
    {
        final PostedReceive r = new PostedReceive(name).set(source, matchInfo, mask);
        queue.post(r);
        return r;
    }

    @Test
    void masksSelectOnlyTheBitsTheyCover()
    {
        assertTrue(MatchInfo.matches(0x1200L, 0xFF00L, 0x12ABL));
        assertFalse(MatchInfo.matches(0x1200L, 0xFF00L, 0x13ABL));
        assertTrue(MatchInfo.matches(0L, MASK_ANY, 0xDEADBEEFL));
        assertFalse(MatchInfo.matches(1L, MASK_ALL, 3L));
        assertTrue(MatchInfo.matches(0x8000_0000_0000_0000L, 0x8000_0000_0000_0000L, -1L));
    }

    @Test
    void bitsOutsideTheMaskAreRefusedWithBothValuesNamed()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new PostedReceive("r").set(ANY_SOURCE, 0x1F0L, 0xF0L));
        assertTrue(e.getMessage().contains("0x1f0"), e.getMessage());
        assertTrue(e.getMessage().contains("0xf0"), e.getMessage());
        assertTrue(e.getMessage().contains("0x100"), e.getMessage());
    }

    @Test
    void earliestPostedAcceptingReceiveWins()
    {
        final PostedReceive exact = post("exact", 2, 0x42L, MASK_ALL);
        final PostedReceive wildcard = post("wild", ANY_SOURCE, 0L, MASK_ANY);
        final PostedReceive later = post("later", 2, 0x42L, MASK_ALL);

        assertSame(wildcard, queue.match(1, 0x42L), "source 1 is not accepted by the exact receive for source 2");
        assertSame(exact, queue.match(2, 0x42L));
        assertSame(later, queue.match(2, 0x42L));
        assertNull(queue.match(2, 0x42L));
        assertTrue(queue.isEmpty());
    }

    @Test
    void noMatchLeavesEverythingQueued()
    {
        post("a", 1, 0x10L, MASK_ALL);
        post("b", ANY_SOURCE, 0x20L, 0xF0L);
        assertNull(queue.match(1, 0x30L));
        assertEquals(2, queue.size());
    }

    @Test
    void cancelRemovesOnlyThatReceiveAndOnlyOnce()
    {
        final PostedReceive a = post("a", ANY_SOURCE, 0L, MASK_ANY);
        final PostedReceive b = post("b", ANY_SOURCE, 0L, MASK_ANY);
        final PostedReceive c = post("c", ANY_SOURCE, 0L, MASK_ANY);
        assertTrue(queue.remove(b));
        assertFalse(queue.remove(b), "second cancel loses");
        assertSame(a, queue.match(5, 1L));
        assertSame(c, queue.match(5, 1L));
        assertNull(queue.match(5, 1L));
        assertFalse(queue.remove(a), "a matched receive cannot be cancelled");
    }

    @Test
    void aQueuedReceiveCannotBePostedOrRedefinedAgain()
    {
        final PostedReceive a = post("a", 1, 0L, MASK_ANY);
        assertThrows(IllegalStateException.class, () -> queue.post(a));
        assertThrows(IllegalStateException.class, () -> a.set(2, 0L, MASK_ANY));
        assertEquals(1, queue.size());
        assertSame(a, queue.match(1, 9L));
        a.set(2, 0L, MASK_ANY);
        queue.post(a);
        assertSame(a, queue.match(2, 0L));
        assertSame("a", a.owner());
    }

    @Test
    void aSourceThatIsNeitherAPartnerIdNorAnySourceIsRefusedNamingIt()
    {
        final PostedReceive r = new PostedReceive("r");
        final IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> r.set(-2, 0L, MASK_ANY));
        assertTrue(e.getMessage().contains("source -2"), e.getMessage());
        assertFalse(r.queued);
        assertTrue(queue.isEmpty());
    }

    @Test
    void receivesAreCountedPerSourceAlsoPastTheFirstSources()
    {
        final PostedReceive near = post("near", 3, 0L, MASK_ANY);
        final PostedReceive far = post("far", 100, 0L, MASK_ANY);
        post("far again", 100, 0L, MASK_ANY);
        post("any", ANY_SOURCE, 0L, MASK_ANY);
        assertEquals(1, queue.postedFrom(3));
        assertEquals(2, queue.postedFrom(100));
        assertEquals(0, queue.postedFrom(99));
        assertEquals(0, queue.postedFrom(1 << 20));
        assertEquals(1, queue.postedFromAnySource());

        assertSame(near, queue.match(3, 7L));
        assertSame(far, queue.match(100, 7L));
        assertEquals(0, queue.postedFrom(3));
        assertEquals(1, queue.postedFrom(100));
        assertEquals(4 - 2, queue.size());
    }
}
