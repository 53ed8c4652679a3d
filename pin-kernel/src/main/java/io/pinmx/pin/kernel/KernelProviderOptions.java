package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_ABI_VERSION;
import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_ATTACH;
import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_DEVICE;
import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_INTERFACE;
import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_PIN_MODE;
import static io.pinmx.pin.spi.ProviderOptionKeys.KERNEL_PULLS_ON_WIRE;

/**
 * The kernel provider's options as keys of the contract: reads the keys a config gives over its typed
 * {@link KernelDriverOptions} (or the defaults), refusing an unknown {@code kernel.} key, a value of another type
 * or an unknown pin mode naming the key, and lists the options an endpoint runs with as keys for reports.
 */
final class KernelProviderOptions
{
    /** Every key the kernel provider reads. */
    static final Set<String> KEYS =
        Set.of(KERNEL_DEVICE, KERNEL_INTERFACE, KERNEL_ATTACH, KERNEL_PIN_MODE, KERNEL_ABI_VERSION, KERNEL_PULLS_ON_WIRE);
    /** Pin mode names, indexed by PinmxAbi.PIN_* + 1 (-1 is the module's default). */
    static final List<String> PIN_MODES = List.of("default", "declare", "on-demand", "overlapped");

    private KernelProviderOptions()
    {
    }

    /**
     * @param config the endpoint's config.
     * @return its typed options, or the defaults, with every {@code kernel.} key it gives applied.
     * @throws DriverException          BAD_ARGUMENT naming an unknown key, an ill-typed value or an unknown pin mode.
     * @throws IllegalArgumentException naming an option whose value is out of range.
     */
    static KernelDriverOptions resolve(final EndpointConfig config)
    {
        final ProviderOptions keyed = config.providerOptions();
        keyed.refuseUnknown(KernelEndpoint.NAME, KEYS);
        final KernelDriverOptions base =
            config.options(KernelDriverOptions.class).orElseGet(KernelDriverOptions::defaults);
        if (keyed.keysOf(KernelEndpoint.NAME).isEmpty())
        {
            return base;
        }
        final int pinMode = keyed.get(KERNEL_PIN_MODE, String.class).map(KernelProviderOptions::pinMode)
            .orElse(base.pinMode());
        return new KernelDriverOptions(
            keyed.get(KERNEL_DEVICE, Path.class).orElse(base.device()),
            keyed.get(KERNEL_INTERFACE, String.class).orElse(base.interfaceName()),
            keyed.get(KERNEL_ATTACH, Boolean.class).orElse(base.attach()),
            pinMode,
            keyed.get(KERNEL_ABI_VERSION, Integer.class).orElse(base.abiVersion()),
            keyed.get(KERNEL_PULLS_ON_WIRE, Boolean.class).orElse(base.pullsOnWire()));
    }

    /**
     * @param options what an endpoint runs with.
     * @return the same as keys.
     */
    static ProviderOptions describe(final KernelDriverOptions options)
    {
        return ProviderOptions.none()
            .with(KERNEL_DEVICE, options.device())
            .with(KERNEL_INTERFACE, options.interfaceName())
            .with(KERNEL_ATTACH, options.attach())
            .with(KERNEL_PIN_MODE, PIN_MODES.get(options.pinMode() + 1))
            .with(KERNEL_ABI_VERSION, options.abiVersion())
            .with(KERNEL_PULLS_ON_WIRE, options.pullsOnWire());
    }

    private static int pinMode(final String name)
    {
        final int index = PIN_MODES.indexOf(name);
        if (index < 0)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "provider option '" + KERNEL_PIN_MODE + "': '" +
                name + "' is not one of " + PIN_MODES);
        }
        return index - 1;
    }
}
