package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverFeature;

import java.util.EnumSet;
import java.util.Set;

/** What the features a pinmx.ko announces (PinmxAbi.FEATURE_* bits) give the driver contract. */
final class ModuleFeatures
{
    private ModuleFeatures()
    {
    }

    static Set<DriverFeature> contractFeatures(final long features)
    {
        final Set<DriverFeature> set = EnumSet.of(DriverFeature.ETHERNET);
        if ((features & PinmxAbi.FEATURE_PIN_ON_DEMAND) != 0 && (features & PinmxAbi.FEATURE_INVALIDATE) != 0)
        {
            set.add(DriverFeature.ON_DEMAND_PINNING);
        }
        if ((features & PinmxAbi.FEATURE_PIN_OVERLAPPED) != 0)
        {
            set.add(DriverFeature.OVERLAPPED_PINNING);
        }
        if ((features & PinmxAbi.FEATURE_NET_PULL) != 0)
        {
            set.add(DriverFeature.ASYNC_PULL_SERVING);
        }
        if ((features & PinmxAbi.FEATURE_NET_LOCAL_PULL) != 0)
        {
            set.add(DriverFeature.SAME_HOST_SINGLE_COPY_PULL);
        }
        if ((features & PinmxAbi.FEATURE_NET_PUT) != 0)
        {
            set.add(DriverFeature.REMOTE_WRITE);
        }
        if ((features & PinmxAbi.FEATURE_NET_ATOMIC) != 0)
        {
            set.add(DriverFeature.REMOTE_ATOMIC);
        }
        if ((features & PinmxAbi.FEATURE_NET_PUT) != 0 && (features & PinmxAbi.FEATURE_NET_ATOMIC) != 0)
        {
            set.add(DriverFeature.PASSIVE_WRITES);
        }
        if ((features & PinmxAbi.FEATURE_NET_HOLD_WRITES) != 0)
        {
            set.add(DriverFeature.HOLD_WRITES);
        }
        return set;
    }
}
