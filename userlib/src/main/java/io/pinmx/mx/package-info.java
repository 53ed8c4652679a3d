/**
 * The MX-style endpoint library: {@link io.pinmx.mx.Endpoint} (connect, isend/issend/irecv,
 * test/wait/waitAny/probe/iprobe/peek/cancel, expose/iget for one-sided reads), its {@link io.pinmx.mx.Request}s and
 * {@link io.pinmx.mx.Status}, and the protocol engine behind them (eager tiny/small/medium,
 * rendezvous with pull and notify, per-partner sessions with acks and resends), split into
 * classes that each own one piece of state ({@code RequestPool}, {@code PartnerTable},
 * {@code Connector}, {@code OutboundQueue}, {@code FrameSender}, {@code FrameReceiver},
 * {@code Rendezvous}, {@code RemoteReads}, {@code PartnerTimers}, {@code ProgressAgent}; see userlib/README.md).
 * <p>
 * Owns the protocol; may call {@link io.pinmx.mx.match}, {@link io.pinmx.mx.reliability},
 * {@link io.pinmx.mx.buffer}, the region cache ({@code io.pinmx.regioncache}) and the driver
 * contract ({@code io.pinmx.pin.spi}, {@code io.pinmx.pin.wire}); never a driver provider directly.
 */
package io.pinmx.mx;
