/**
 * The admin command line, {@link io.pinmx.pin.admin.PinmxAdmin}: lists the driver providers on
 * the class path, edits the host's peer table and prints the counters endpoints published.
 * <p>
 * May call {@link io.pinmx.pin.spi} (providers through {@link java.util.ServiceLoader}) and
 * {@link io.pinmx.pin.node}; no provider package directly.
 */
package io.pinmx.pin.admin;
