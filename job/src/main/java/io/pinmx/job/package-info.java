/**
 * A job of N ranks, for any program that needs them: {@link io.pinmx.job.JobRank} (rank and size from the
 * launcher's variables, {@link io.pinmx.job.Launcher}), {@link io.pinmx.job.Job} (the bootstrap rendezvous at
 * {@link io.pinmx.job.BootstrapAddress} and a control plane of small collectives), and
 * {@link io.pinmx.job.JobEndpoint} (this rank's pinmx endpoint connected to every other rank, reachable where
 * {@link io.pinmx.job.RankAddress} says: PINMX_ADDRESS, PINMX_IFACE, or the route to rank 0), and
 * {@link io.pinmx.job.RankBinding} (a busy-polling rank's thread bound to its own CPU, PINMX_BIND).
 * A busy-polling rank waits with pin-contract's one idle strategy
 * ({@link io.pinmx.pin.provider.BackoffThenBlockIdleStrategy#busyPolling}).
 * <p>
 * Owns the job's control connections and the partner table by rank; may call the endpoint library
 * ({@code io.pinmx.mx}), the provider choice ({@code io.pinmx.pin.select}), the driver contract
 * ({@code io.pinmx.pin.spi}), the providers' option records, the idle strategy ({@code io.pinmx.pin.provider}) and
 * Agrona; nothing above it (bench-imb, rma, mpj-device).
 */
package io.pinmx.job;
