/**
 * Which provider runs: {@link io.pinmx.pin.select.DriverSelector} probes /dev/pinmx and honours the
 * {@code pinmx.driver} property / {@code PINMX_DRIVER} variable. Owns that rule only.
 * <p>
 * May call {@link io.pinmx.pin.spi}, {@link io.pinmx.pin.kernel} and {@link io.pinmx.pin.user} (the providers it
 * chooses between) and the JDK. Callers above pin-service (userlib users, bench-imb) ask it instead of naming a
 * provider.
 */
package io.pinmx.pin.select;
