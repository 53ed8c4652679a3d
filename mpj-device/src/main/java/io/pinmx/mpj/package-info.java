/**
 * pinmx as a transport for MPJ Express 0.44: {@link io.pinmx.mpj.PinmxDevice} implements MPJ's {@code xdev.Device}
 * over the endpoint library ({@link io.pinmx.mpj.PinmxRequest} one MPJ request, {@link io.pinmx.mpj.MatchBits}
 * the match-info layout, {@link io.pinmx.mpj.MessageHeader} the header ahead of each static buffer,
 * {@link io.pinmx.mpj.ProbeStash} the messages probes took out of the endpoint,
 * {@link io.pinmx.mpj.Heartbeats} liveness of the job's ranks while one waits, {@link io.pinmx.mpj.JvmJob} the job a
 * JVM joins once for all its MPI.Init calls). {@code xdev.mxdev.MXDevice} is the name MPJ instantiates.
 * <p>
 * Owns the device state of one MPI.Init; may call the job module ({@code io.pinmx.job}), the endpoint library
 * ({@code io.pinmx.mx}), MPJ Express's mpjbuf/mpjdev/xdev classes and Agrona. Nothing in pinmx calls it.
 */
package io.pinmx.mpj;
