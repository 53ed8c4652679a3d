package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverFeature;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The contract features a module's feature bits give: what rma decides its passive targets by. */
class ModuleFeaturesTest
{
    private static final long PULLS = PinmxAbi.FEATURE_NET_PULL | PinmxAbi.FEATURE_NET_LOCAL_PULL;

    @Test
    void passiveWritesNeedPutsAndAtomicsAndHoldingNeedsItsOwnBit()
    {
        assertEquals(EnumSet.of(DriverFeature.ETHERNET, DriverFeature.ASYNC_PULL_SERVING,
            DriverFeature.SAME_HOST_SINGLE_COPY_PULL), ModuleFeatures.contractFeatures(PULLS));
        final Set<DriverFeature> puts = ModuleFeatures.contractFeatures(PULLS | PinmxAbi.FEATURE_NET_PUT);
        assertAdded(Set.of(DriverFeature.REMOTE_WRITE), puts);
        final Set<DriverFeature> passive =
            ModuleFeatures.contractFeatures(PULLS | PinmxAbi.FEATURE_NET_PUT | PinmxAbi.FEATURE_NET_ATOMIC);
        assertAdded(Set.of(DriverFeature.REMOTE_WRITE, DriverFeature.REMOTE_ATOMIC, DriverFeature.PASSIVE_WRITES),
            passive);
        final Set<DriverFeature> holding = ModuleFeatures.contractFeatures(PULLS | PinmxAbi.FEATURE_NET_PUT |
            PinmxAbi.FEATURE_NET_ATOMIC | PinmxAbi.FEATURE_NET_HOLD_WRITES);
        assertAdded(Set.of(DriverFeature.REMOTE_WRITE, DriverFeature.REMOTE_ATOMIC, DriverFeature.PASSIVE_WRITES,
            DriverFeature.HOLD_WRITES), holding);
    }

    /** Asserts that {@code features} are the pull module's plus exactly {@code added}. */
    private static void assertAdded(final Set<DriverFeature> added, final Set<DriverFeature> features)
    {
        final Set<DriverFeature> want = EnumSet.of(DriverFeature.ETHERNET, DriverFeature.ASYNC_PULL_SERVING,
            DriverFeature.SAME_HOST_SINGLE_COPY_PULL);
        want.addAll(added);
        assertEquals(want, features);
    }
}
