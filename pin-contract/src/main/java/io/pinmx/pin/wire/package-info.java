/**
 * The MXoE frame codec: frame kinds, flyweights that read and write each kind's fields in
 * place over a {@link java.lang.foreign.MemorySegment} (network byte order), and
 * {@link io.pinmx.pin.wire.FrameReader}, which classifies a received frame as valid or names a
 * {@link io.pinmx.pin.wire.DropReason} without throwing or allocating. The byte layout is
 * specified in docs/wire-protocol.md; the kernel module parses the same bytes.
 * <p>
 * Owns the byte layout only. Calls nothing but the JDK.
 */
package io.pinmx.pin.wire;
