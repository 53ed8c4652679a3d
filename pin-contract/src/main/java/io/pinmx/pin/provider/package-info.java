/**
 * What both providers of the driver contract share: the peer registry (one endpoint's peer table: slots, indexes
 * that carry a generation, library references, transient holds by events and pulls, least-recently-used reclaim, the
 * contract's peer errors; each provider supplies a {@link io.pinmx.pin.provider.PeerKey}), the contract's argument
 * checks, the one idle strategy of pinmx ({@link io.pinmx.pin.provider.BackoffThenBlockIdleStrategy}: every
 * spin/yield/block wait of the providers, the endpoint library, the job module, rma's mutexes and the benchmarks, with its
 * tunings documented there), the one place that runs progress agents in a {@link io.pinmx.pin.provider.ThreadingMode}
 * ({@link io.pinmx.pin.provider.ProgressRunner}: an Agrona AgentRunner thread, or an AgentInvoker for callers' waits),
 * and the one libc wrapper ({@link io.pinmx.pin.provider.Libc}) with errno names ({@link
 * io.pinmx.pin.provider.Errno}), the datagram socket calls of the user-space driver
 * ({@link io.pinmx.pin.provider.LibcSockets}: sendmsg/recvmsg with UDP segmentation and receive offload, eventfd, poll)
 * and the thread placement calls ({@link io.pinmx.pin.provider.LibcScheduling}: CPU affinity, SCHED_IDLE), with
 * {@link io.pinmx.pin.provider.BackgroundThread} for work nobody waits on, kept off a rank's bound CPU, and
 * {@link io.pinmx.pin.provider.FileSpace}: a shared file's memory allocated before anyone maps it (the user driver's
 * endpoint files, rma's slices), refused naming the directory, the bytes asked and free and what moves the file,
 * and {@link io.pinmx.pin.provider.SegmentKinds}: every kind of memory segment loaded before pinmx's code is compiled,
 * so an application's first heap segment does not throw that compiled code away.
 * <p>
 * The lowest floor: every module above the contract may call it. May call {@link io.pinmx.pin.spi} (the contract
 * types its checks and errors use), {@link io.pinmx.pin.wire} (frame kinds and header offsets), Agrona (the
 * IdleStrategy family, agents), the JDK and libc through FFM; never a provider.
 */
package io.pinmx.pin.provider;
