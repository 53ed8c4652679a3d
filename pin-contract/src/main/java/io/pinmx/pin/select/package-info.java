/**
 * Which provider runs: {@link io.pinmx.pin.select.DriverSelector} chooses among the
 * {@link io.pinmx.pin.spi.DriverProvider} services on the class path, probing each, and honours the
 * {@code pinmx.driver} property / {@code PINMX_DRIVER} variable. Owns that rule, and the version line every program
 * prints for {@code --version} ({@link io.pinmx.pin.select.PinmxVersion}: the providers add their own parts).
 * <p>
 * May call {@link io.pinmx.pin.spi} and the JDK; never a provider. Callers above the contract (userlib users,
 * job, bench-imb) ask it instead of naming a provider.
 */
package io.pinmx.pin.select;
