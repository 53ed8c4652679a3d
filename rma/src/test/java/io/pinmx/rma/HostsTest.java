package io.pinmx.rma;

import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The members each {@link ArmciScope} takes in on a job over three hosts (ranks 0, 1 | 2, 3 | 4), for the world and a
 * group listing them out of order: what a one-host launcher job cannot show.
 */
class HostsTest
{
    private static final int[] HOST_OF = {0, 0, 2, 2, 4};

    private static RmaGroup group(final int self, final int... members)
    {
        return new RmaGroup(7, members, HOST_OF.length, self, null);
    }

    @Test
    void nodeTakesInTheMembersOnTheCallersHostInGroupOrder()
    {
        assertArrayEquals(new int[] {3, 2}, new Hosts(HOST_OF, 3).members(ArmciScope.NODE, group(3, 4, 3, 1, 0, 2)));
        assertArrayEquals(new int[] {4}, new Hosts(HOST_OF, 4).members(ArmciScope.NODE, group(4, 4, 3, 1, 0, 2)));
        assertArrayEquals(new int[] {0, 1}, new Hosts(HOST_OF, 1).members(ArmciScope.NODE, group(1, 0, 1, 2, 3, 4)));
    }

    @Test
    void mastersAreEachHostsLowestMemberAndOnlyTheyTakePart()
    {
        final RmaGroup shuffled = group(2, 4, 3, 1, 0, 2);
        assertArrayEquals(new int[] {4, 0, 2}, new Hosts(HOST_OF, 2).members(ArmciScope.MASTERS, shuffled));
        assertNull(new Hosts(HOST_OF, 3).members(ArmciScope.MASTERS, group(3, 4, 3, 1, 0, 2)));
        assertNull(new Hosts(HOST_OF, 1).members(ArmciScope.MASTERS, group(1, 4, 3, 1, 0, 2)));
        // Without rank 0 in the group, rank 1 is its host's master.
        assertArrayEquals(new int[] {1, 3}, new Hosts(HOST_OF, 1).members(ArmciScope.MASTERS, group(1, 1, 3)));
    }

    @Test
    void allTakesInEveryMemberAndOneHostIsKnown()
    {
        assertArrayEquals(new int[] {4, 3, 1}, new Hosts(HOST_OF, 1).members(ArmciScope.ALL, group(1, 4, 3, 1)));
        assertTrue(new Hosts(new int[] {0, 0, 0}, 2).oneHost());
        assertFalse(new Hosts(HOST_OF, 0).oneHost());
    }
}
