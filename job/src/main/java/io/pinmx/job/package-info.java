/**
 * A job of N ranks, for any program that needs them: {@link io.pinmx.job.JobRank} (rank and size from the
 * launcher's variables, {@link io.pinmx.job.Launcher}), {@link io.pinmx.job.Job} (a control plane of small
 * collectives: the launcher's PMIx server through FFM, {@link io.pinmx.job.PmixExchange}, or the bootstrap
 * rendezvous at {@link io.pinmx.job.BootstrapAddress} and a TCP star, {@link io.pinmx.job.TcpStar}), and
 * {@link io.pinmx.job.JobEndpoint} (this rank's pinmx endpoint connected to every other rank, reachable where
 * {@link io.pinmx.job.RankAddress} says: PINMX_ADDRESS, PINMX_IFACE, or the route to rank 0), and
 * {@link io.pinmx.job.RankBinding} (a busy-polling rank's thread bound to its own CPU, PINMX_BIND).
 * A busy-polling rank waits with pin-contract's one idle strategy
 * ({@link io.pinmx.pin.provider.BackoffThenBlockIdleStrategy#busyPolling}).
 * <p>
 * Owns the job's control connections, its PMIx client and the partner table by rank; may call libpmix.so.2, the endpoint library
 * ({@code io.pinmx.mx}), the provider choice ({@code io.pinmx.pin.select}), the driver contract
 * ({@code io.pinmx.pin.spi}), the providers' option records, the idle strategy ({@code io.pinmx.pin.provider}) and
 * Agrona; nothing above it (bench-imb, rma, mpj-device).
 */
package io.pinmx.job;
