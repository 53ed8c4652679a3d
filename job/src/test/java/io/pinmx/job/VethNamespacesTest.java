package io.pinmx.job;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The two "hosts" are usable when {@link VethNamespaces#create()} returns: both veth ends operationally up, so a
 * rank started at once finds its address on an interface that counts as up. Skipped, saying why, unless root with
 * iproute2's {@code ip}.
 */
class VethNamespacesTest
{
    @Test
    void bothEndsAreOperationallyUpWhenCreateReturns() throws Exception
    {
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            for (int side = 0; side < 2; side++)
            {
                assertEquals("up", hosts.operationalState(side), "veth " + hosts.name(side) + " right after create()");
            }
        }
    }
}
