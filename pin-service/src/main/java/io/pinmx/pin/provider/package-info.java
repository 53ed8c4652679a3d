/**
 * What both providers of the driver contract share: the peer registry (one endpoint's peer slots, indexes that
 * carry a generation, library references, transient holds by events and pulls, least-recently-used reclaim).
 * <p>
 * May call {@link io.pinmx.pin.spi} (the contract types its errors use) and the JDK; never a provider.
 */
package io.pinmx.pin.provider;
