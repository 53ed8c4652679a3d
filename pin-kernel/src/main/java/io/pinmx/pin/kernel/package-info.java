/**
 * The kernel provider of the driver contract ({@link io.pinmx.pin.kernel.KernelDriver}): an FFM binding (no JNI) to
 * /dev/pinmx of kmod/pinmx.ko. Owns the Java mirror of the kernel ABI ({@link io.pinmx.pin.kernel.PinmxAbi}:
 * constants, ioctl numbers, every uapi struct as a MemoryLayout, checked against the C header by a test), the
 * endpoint's open file, its mapped event ring (read in place: frames are handed to the library where the kernel put
 * them), and its peer table of MAC addresses (a {@link io.pinmx.pin.provider.PeerRegistry} keyed by MacPeer.Key).
 * The module runs pinning and the pull engine; this package only makes ioctls and reads the ring, so it has no
 * threads. {@link io.pinmx.pin.kernel.KernelModuleStatus} reads the module's own description (sysfs,
 * PINMX_IOC_INFO/COUNTERS, debugfs) for the admin tool, without an endpoint.
 * <p>
 * May call {@link io.pinmx.pin.spi} (the contract it implements), {@link io.pinmx.pin.provider} (what both providers
 * share: peer registry, argument checks, idle strategy, and libc through {@link io.pinmx.pin.provider.Libc}), {@link
 * io.pinmx.pin.wire} (frame kinds and header offsets) and the JDK.
 */
package io.pinmx.pin.kernel;
