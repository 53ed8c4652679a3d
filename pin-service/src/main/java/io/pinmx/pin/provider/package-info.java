/**
 * What both providers of the driver contract share: the peer registry (one endpoint's peer slots, indexes that
 * carry a generation, library references, transient holds by events and pulls, least-recently-used reclaim), the
 * contract's argument checks, the idle strategy of their spin/yield/block loops, and the one libc wrapper
 * ({@link io.pinmx.pin.provider.Libc}) with errno names ({@link io.pinmx.pin.provider.Errno}).
 * <p>
 * May call {@link io.pinmx.pin.spi} (the contract types its checks and errors use), {@link io.pinmx.pin.wire}
 * (frame kinds and header offsets), Agrona (the IdleStrategy family), the JDK and libc through FFM; never a
 * provider.
 */
package io.pinmx.pin.provider;
