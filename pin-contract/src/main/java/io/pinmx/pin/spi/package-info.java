/**
 * The driver contract: the one set of operations every provider (the kernel binding over
 * /dev/pinmx, the user-space driver) implements and everything above the contract calls —
 * open an endpoint, declare and destroy regions, send a frame, start a pull, read events,
 * read counters, describe the provider.
 * <p>
 * Owns the contract types only; no behaviour beyond value types, the event flyweight, the
 * counter array and provider options by key ({@link io.pinmx.pin.spi.ProviderOptions}), which each provider
 * reads and checks. Providers register a {@link io.pinmx.pin.spi.DriverProvider} so callers choose one without
 * naming its class. It may call the JDK and {@link io.pinmx.pin.wire} (frame kinds and drop
 * reasons that the counters are indexed by); it never calls a provider.
 */
package io.pinmx.pin.spi;
