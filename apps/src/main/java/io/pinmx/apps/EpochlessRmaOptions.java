package io.pinmx.apps;

import io.pinmx.rma.RmaOptions;

import java.util.Map;

/**
 * rma's options for a kernel that opens no access epochs: it announces so at init, so a get from it through the
 * driver is done once its pulls are, with no read of the target's epoch counter after them (a round trip served by
 * the target's endpoint). PINMX_RMA_ACCESS_EPOCHS, when set, decides instead.
 */
public final class EpochlessRmaOptions
{
    private EpochlessRmaOptions()
    {
    }

    /**
     * @throws IllegalArgumentException naming the rma variable whose value is not valid.
     */
    public static RmaOptions fromEnvironment(final Map<String, String> env)
    {
        final RmaOptions fromEnvironment = RmaOptions.fromEnvironment(env);
        return env.containsKey(RmaOptions.ACCESS_EPOCHS_VARIABLE) ? fromEnvironment :
            fromEnvironment.withAccessEpochs(false);
    }
}
