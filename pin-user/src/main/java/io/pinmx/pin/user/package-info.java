/**
 * The user-space provider of the driver contract ({@link io.pinmx.pin.user.UserDriver}): MXoE frames as UDP
 * datagram payloads (the socket driven through {@link io.pinmx.pin.provider.LibcSockets} by {@code UdpTransport}:
 * gathering sends, pull replies and a library's send runs in UDP_SEGMENT runs, frames cut to the bound interface's
 * MTU; UDP_GRO receives by {@code UdpReceiver}; every UDP frame and probe carries a CRC32C, {@code FrameChecksum},
 * checked on receipt), and for endpoints of one host a
 * many-to-one shared-memory ring per receiving endpoint in its file in PINMX_SHM_DIR (default /dev/shm; memory
 * allocated before the file is mapped, so a full directory refuses the open) (zero-length UDP datagrams as doorbells
 * for a parked receiver) plus single-copy pulls by one
 * process_vm_readv from the peer's region table published in the same file, or, from 128 KiB, shared with the
 * source endpoint's agent when it polls or its caller is blocked in its own wait (the invitation rings that one's
 * doorbell) ({@code SharedPulls} slots in the puller's file: {@code SharedPullCopy} copies
 * the front, the source's {@code PullHelper} the back with process_vm_writev; declared memory is moved into
 * transparent huge pages at declare time by {@code HugePageAdvice}, so both walk it 2 MiB at a time). Puts and
 * atomics into regions exposed
 * with a key: {@code RemoteWriter} on the origin (a same-host put written with process_vm_writev, others as PUT frames;
 * atomics as ATOMIC frames, through the target's ring on one host, over {@code RemoteOps} slots), {@code RemoteWriteServer} on the target (checks, writes,
 * {@code WordAtomics}, and the per-origin {@code OriginRecords} that drop stale puts and answer resent atomics once). Owns the endpoint's UDP socket,
 * shared-memory file, peer table (a {@link io.pinmx.pin.provider.PeerRegistry} keyed by UdpPeer.Key), region table, both sides of the
 * pull protocol ({@code Puller} over preallocated {@code PullSlot}s, cancelled through the agent: a received run's payloads read by the kernel
 * straight into the pull's region where {@code ReplyPlacement} can place them, else written with one
 * {@code ReplyCopyBatch}; {@code PullServer}, sending each block's payloads straight from the region, both through
 * {@code FrameIovecs}), the receive dispatch
 * ({@code FrameDispatcher}), the send path ({@code FrameTransmitter}), liveness ({@code LivenessProbes}: exact on
 * this host from endpoint files and /proc, probes answered by the remote agent across hosts) and the progress agent
 * ({@code EndpointAgent}, on its progress thread or, without one, with its {@code Responder}: each an Agrona agent
 * that pin-contract's {@code ProgressRunner} runs).
 * Never pins memory. {@link io.pinmx.pin.user.UserEndpointFile} lists the endpoint files of a host for the admin
 * tool.
 * <p>
 * May call {@link io.pinmx.pin.spi} (the contract it implements), {@link io.pinmx.pin.provider} (what both
 * providers share: peer registry, argument checks, idle strategy, progress runner, and libc through
 * {@link io.pinmx.pin.provider.Libc}), {@link io.pinmx.pin.wire} (frame layouts and validation), {@link io.pinmx.pin.node} (publishing counters, only
 * in a JVM with Chronicle Map's flags) and the JDK.
 */
package io.pinmx.pin.user;
