/**
 * The MX-style endpoint library: {@link io.pinmx.mx.Endpoint} (connect, isend/issend/irecv,
 * test/wait/waitAny/probe/iprobe/peek/cancel, expose/iget for one-sided reads), its {@link io.pinmx.mx.Request}s and
 * {@link io.pinmx.mx.Status}, and the protocol engine behind them (eager tiny/small/medium,
 * rendezvous with pull and notify, per-partner sessions with acks and resends), split into
 * classes that each own one piece of state ({@code RequestPool}, {@code PartnerTable},
 * {@code Connector}, {@code OutboundQueue}, {@code FrameSender}, {@code FrameReceiver},
 * {@code Rendezvous}, {@code RemoteReads}, {@code PartnerTimers}, {@code EndpointRound}, {@code CallerWaits}; see userlib/README.md).
 * <p>
 * Threads: the endpoint lock guards all protocol state; API threads hold it briefly to post work, the round (an
 * Agrona agent, on its DEDICATED thread or a caller's INVOKER wait) holds it to poll and run timers, and the region
 * declares of sends and matched receives run outside it. {@code CallerWaits}' await lock lets one INVOKER wait at a
 * time block in the driver.
 * <p>
 * Owns the protocol; may call {@link io.pinmx.mx.match}, {@link io.pinmx.mx.reliability},
 * {@link io.pinmx.mx.buffer}, the region cache ({@code io.pinmx.regioncache}) and the driver
 * contract ({@code io.pinmx.pin.spi}, {@code io.pinmx.pin.wire}); never a driver provider directly.
 */
package io.pinmx.mx;
