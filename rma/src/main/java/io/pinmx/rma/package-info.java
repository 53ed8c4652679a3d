/**
 * ARMCI-style one-sided communication over pinmx: {@link io.pinmx.rma.Rma} is the facade (allocation, put, get,
 * accumulate, read-modify-write, fences, access epochs ({@code AccessEpoch}); mutexes and address-range locks
 * through {@link io.pinmx.rma.RmaLocks} ({@code MemoryLocks}); protocols through {@link io.pinmx.rma.RmaProtocols})
 * over the layers {@code RmaLayers} opens and releases, with {@code Fences} completing
 * operations at their targets, {@link io.pinmx.rma.RmaGroups} for groups ({@link io.pinmx.rma.RmaGroup}, whose
 * collectives go through {@code GroupMailboxes}) and {@link io.pinmx.rma.RmaMessages} for the message helpers
 * ({@code Reductions}, {@link io.pinmx.rma.ReduceOp}, {@code TwoSidedMessages} over {@code MessagePeers}: the job's
 * endpoint, or {@code OnDemandMessageEndpoint} opened at a rank's first message, its address in the rank's control file
 * ({@code MessageAddresses})); {@code Transfers} checks every data
 * operation and routes it to a tier; {@link io.pinmx.rma.StridedPatch}, {@link io.pinmx.rma.Accumulator} and
 * {@link io.pinmx.rma.LockStripes} are shared by every transfer path; {@code Ranks}, {@code Allocator} and
 * {@code SharedMemoryTier} own rank discovery (with {@code LivenessWatcher}, an agent noticing same-host ranks that
 * exited), the shared files (and each slice's exposed region) and the same-host operations; {@code DriverTier} (origin: gets as the endpoint's one-sided reads, requests for the rest, with
 * {@code PieceRequests} encoding and sending the requests that name pieces, {@code WritesSinceFence} for what a fence
 * waits for, {@code PackedGet} for a get the target packs, {@code ReadsInFlight} holding gets back under the drivers' pull
 * limits, {@code ServerNotices} for what it tells a server without waiting and {@code RankFailures} for how an
 * operation on a failed rank ends) and {@code DataServer} (target, with {@code ServerReplies} for its answers in
 * flight, {@code MutexWaiters} for remote lockers waiting for their turn, {@code StagingBuffer} for data it applies
 * once whole, and the {@code PackArea} it packs such gets into
 * for the origin to pull, handed out by {@code PackParts}) own what goes through the endpoint
 * ({@code RequestHeader}, {@code RmaTags}, {@code Pieces}, {@code PieceCursor}, {@code ChunkSchedule},
 * {@code StreamBuffers}, and {@code CopiedWrites} and {@code KeptBuffers} for writes complete on their copy and for
 * answers); {@code ProtocolChoice} picks each request's protocol
 * ({@link io.pinmx.rma.StridedProtocol}, {@link io.pinmx.rma.ContiguousProtocol}) from the options or the
 * {@link io.pinmx.rma.CostModel}, which {@code CostModels} reads from its file ({@code CostModelFile}) or has
 * {@code Calibration} measure. {@code io.pinmx.rma.protocol.bench} holds the protocol sweep (a program). Calls the
 * JDK, {@code io.pinmx.job}, {@code io.pinmx.mx} and {@code io.pinmx.pin.provider} (idle strategies, files, the
 * {@code ProgressRunner} that runs the data server and the liveness watcher as Agrona agents), and {@code io.pinmx.pin.spi}'s counters
 * ({@code CallerProgress}: pull requests received) and endpoint addresses (the on-demand endpoint's peers).
 */
package io.pinmx.rma;
