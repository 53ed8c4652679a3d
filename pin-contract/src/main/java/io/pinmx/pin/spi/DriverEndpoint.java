package io.pinmx.pin.spi;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * An open endpoint of a provider. Operations throw {@link DriverException} naming what was
 * wrong; after {@link #close()} every operation but {@code close}, {@code address}, {@code info}
 * and {@code counters} throws {@link DriverError#ENDPOINT_CLOSED}.
 * {@link #poll} and {@link #await} are called by one thread at a time; sends, pulls and region
 * operations may come from any thread.
 */
public interface DriverEndpoint extends AutoCloseable
{
    /** {@link #receiveQueueWritten} and {@link #receiveQueueRead} where frames go onto a link, not into a queue. */
    long NO_RECEIVE_QUEUE = -1;

    /**
     * @return this endpoint's board address, index and session id.
     */
    EndpointAddress address();

    /**
     * @return the provider's description.
     */
    DriverInfo info();

    /**
     * The peer index of a board, with one reference held by the caller; the entry is created when needed. This is
     * what the library calls when it connects out. The index stays valid while the caller holds a reference.
     * <p>
     * Peer entries: an entry with no reference is still usable, but once no queued event or pull in flight names it
     * the driver may reclaim it (least recently used first) when a new peer needs room. A peer index carries its
     * slot's generation, so the index of a reclaimed entry is refused ({@link DriverError#UNKNOWN_PEER}), never
     * taken for the slot's next peer.
     *
     * @param board a remote (or local) board.
     * @return its peer index.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} for a board this provider cannot reach,
     *                         {@link DriverError#NO_RESOURCES} when every entry is referenced or held (the message
     *                         says how many of each).
     */
    int acquirePeer(BoardAddress board);

    /**
     * One more reference to a peer index, typically one carried by the event being handled (called inside the
     * {@link EventHandler}, during {@link #poll}, where the event keeps the entry alive), e.g. an incoming
     * CONNECT_REQUEST the library accepts.
     *
     * @param peerIndex a peer index.
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} naming the index when it is not in the table.
     */
    void retainPeer(int peerIndex);

    /**
     * Drop one reference taken by {@link #acquirePeer} or {@link #retainPeer} (the library's partner is gone).
     *
     * @param peerIndex a peer index.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming the index when it is not in the table or
     *                         holds no reference.
     */
    void releasePeer(int peerIndex);

    /**
     * @param peerIndex a peer index returned by {@link #acquirePeer(BoardAddress)} or carried by an event.
     * @return the board.
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} for an unknown or reclaimed index.
     */
    BoardAddress peer(int peerIndex);

    /**
     * Declare a region: a vector of native segments, used zero-copy. Declaration does not touch
     * the pages: an unmapped segment is accepted and fails the first pull that touches it.
     *
     * @param segments    native segments; the first {@code count} are used.
     * @param count       1..{@code info().maxSegments()}.
     * @param accessFlags {@link RegionAccess#READ} and/or {@link RegionAccess#WRITE}.
     * @return a region id, opaque and never reused while pulls may still name it.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} for a heap segment, a bad count or
     *                         flags (naming the segment index), {@link DriverError#NO_RESOURCES}
     *                         when the region table is full.
     */
    int declareRegion(MemorySegment[] segments, int count, int accessFlags);

    /**
     * Undeclare a region; pulls in flight on it fail.
     *
     * @param regionId id from {@link #declareRegion}.
     * @throws DriverException {@link DriverError#UNKNOWN_REGION} naming the id.
     */
    void destroyRegion(int regionId);

    /**
     * Send one frame: {@code header} holds the encoded common header and kind part, {@code payload}
     * the bytes after it. Returns once both may be reused.
     *
     * @param peerIndex destination board.
     * @param header    encoded header, with the payload length field matching {@code payload}.
     * @param payload   payload bytes, or {@link MemorySegment#NULL} / an empty segment for none.
     * @return true when the frame is already in the destination endpoint's receive queue, where nothing between
     *         the two endpoints can lose it (the user driver's same-host shared-memory ring); false when it went
     *         onto a link or socket that may drop it. Either way the receiver may still refuse it (the library's
     *         hold-back), so a sequenced frame stays resendable until acknowledged.
     */
    boolean send(int peerIndex, MemorySegment header, MemorySegment payload);

    /**
     * Send a run of frames to one endpoint of a peer, frame k being {@code headers[k]} then {@code payloads[k]},
     * each as {@link #send} would, in as few calls into the system as the provider can make (the user driver: frames
     * of one size go together in one UDP send with segmentation offload where the route allows). Returns once every
     * header and payload may be reused. By default, {@link #send} frame by frame.
     *
     * @param peerIndex destination board.
     * @param headers   encoded headers, every one naming the same destination endpoint and session.
     * @param payloads  payload bytes of each frame, or {@link MemorySegment#NULL} / an empty segment for none.
     * @param frames    frames of the run: the first {@code frames} entries of both arrays, 1 or more.
     * @return as {@link #send}, for every frame of the run.
     * @throws DriverException as {@link #send}, naming the frame when one is refused as an argument; a transient
     *                         refusal (a full send buffer) may come after some frames of the run went out.
     */
    default boolean sendRun(int peerIndex, MemorySegment[] headers, MemorySegment[] payloads, int frames)
    {
        boolean delivered = true;
        for (int k = 0; k < frames; k++)
        {
            delivered &= send(peerIndex, headers[k], payloads[k]);
        }
        return delivered;
    }

    /**
     * Where the destination endpoint's receive queue (into which {@link #send} returned true) ends now: a mark that
     * {@link #receiveQueueRead} passes once the destination has read every frame written before this call.
     *
     * @return the mark, or {@link #NO_RECEIVE_QUEUE} when frames to that endpoint go onto a link (by default).
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} for an unknown or reclaimed index.
     */
    default long receiveQueueWritten(int peerIndex, int endpointIndex, int sessionId)
    {
        return NO_RECEIVE_QUEUE;
    }

    /**
     * How far the destination endpoint's library has taken frames from its receive queue (handed to its poll, or
     * consumed by its driver), comparable with {@link #receiveQueueWritten}'s marks: a frame is still untaken (it can
     * neither have been refused by the library nor lost) while this is below a mark taken after it went in.
     *
     * @return the position taken, or {@link #NO_RECEIVE_QUEUE} when there is no such queue (any more).
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} for an unknown or reclaimed index.
     */
    default long receiveQueueRead(int peerIndex, int endpointIndex, int sessionId)
    {
        return NO_RECEIVE_QUEUE;
    }

    /**
     * Start a pull; completion arrives as PULL_DONE or PULL_FAILED with the spec's handle. The
     * spec may be reused as soon as this returns.
     *
     * @param spec what to pull.
     * @throws DriverException for an unknown local region, a range past its end, an unknown peer.
     */
    void startPull(PullSpec spec);

    /**
     * End the pulls in flight with this handle now rather than at their last byte or their timeout: each ends with
     * one PULL_FAILED event of kind {@link DriverError#CANCELLED} (bytes: those complete), after which the driver
     * writes nothing more into its local region; replies arriving later are dropped and counted as
     * {@code PULL_DUPLICATE_FRAMES}. A copy already under way finishes first. A pull that ended before the cancel
     * took effect keeps its own end event, and a handle with no pull in flight is ignored, so cancelling is always
     * safe. Returns before the pull ends: its end event says when the local region is free again; a pull started
     * with the same handle before that event may be cancelled with it.
     *
     * @param pullHandle the handle the pulls were started with ({@link PullSpec#pullHandle}).
     * @throws DriverException {@link DriverError#UNSUPPORTED} on a provider that cannot cancel (its pulls end on
     *                         their own), {@link DriverError#ENDPOINT_CLOSED} after close.
     */
    default void cancelPull(int pullHandle)
    {
        throw new DriverException(DriverError.UNSUPPORTED, "cancelPull: provider '" + info().providerName() +
            "' cannot cancel a pull; it ends at its last byte or its timeout");
    }

    /**
     * Declare native memory for remote writes and atomics: peers that are given the returned key may put into it
     * ({@link #startPut}) and apply atomics to it ({@link #startAtomic}) with no help from this process, and read it
     * with the key. Providers without {@link DriverFeature#REMOTE_WRITE} refuse it.
     *
     * @param segments native segments; the first {@code count} are used, as for {@link #declareRegion}.
     * @return the region's id (destroyed with {@link #destroyRegion}) and key.
     * @throws DriverException {@link DriverError#UNSUPPORTED} naming the provider and the capability, or as
     *                         {@link #declareRegion}.
     */
    default RemoteRegion declareRemoteRegion(MemorySegment[] segments, int count)
    {
        throw unsupported(this, DriverFeature.REMOTE_WRITE, "declareRemoteRegion");
    }

    /**
     * Start a put into a peer's remote-writable region; its end arrives as PUT_DONE (every byte is in the target's
     * memory: remote completion) or PUT_FAILED with the spec's handle. Callers keep the source bytes unchanged until
     * the end event: a provider may read them until then (the kernel provider copies them before this returns).
     *
     * @throws DriverException {@link DriverError#UNSUPPORTED} naming the provider and the capability on a provider
     *                         without {@link DriverFeature#REMOTE_WRITE}; {@link DriverError#BAD_ARGUMENT} naming
     *                         the offset, length or piece that is wrong.
     */
    default void startPut(PutSpec spec)
    {
        throw unsupported(this, DriverFeature.REMOTE_WRITE, "startPut");
    }

    /**
     * Start an atomic on a peer's remote-writable region; its end arrives as ATOMIC_DONE with the old value, or
     * ATOMIC_FAILED, with the spec's handle. A resent request is applied once.
     *
     * @throws DriverException {@link DriverError#UNSUPPORTED} naming the provider and the capability on a provider
     *                         without {@link DriverFeature#REMOTE_ATOMIC}; {@link DriverError#BAD_ARGUMENT} naming
     *                         a width, offset or count that is wrong.
     */
    default void startAtomic(AtomicSpec spec)
    {
        throw unsupported(this, DriverFeature.REMOTE_ATOMIC, "startAtomic");
    }

    /**
     * Hold back, or let in again, the peers' puts and atomics into a region this endpoint declared with
     * {@link #declareRemoteRegion}: once a hold returns, none lands in the region (the ones in flight have finished;
     * later ones wait at their origin, which keeps resending them, and land once the region is let in), so this
     * process may load and store it as its own. Reads of the region go on. Holding twice, or letting in a region not
     * held, changes nothing.
     *
     * @throws DriverException {@link DriverError#UNSUPPORTED} naming the provider on one that cannot hold writes
     *                         back (without {@link DriverFeature#HOLD_WRITES}); {@link DriverError#UNKNOWN_REGION}
     *                         for a region it has not declared.
     */
    default void holdRemoteWrites(int regionId, boolean hold)
    {
        throw new DriverException(DriverError.UNSUPPORTED, "holdRemoteWrites: provider '" + info().providerName() +
            "' cannot hold back writes into region " + regionId);
    }

    /**
     * @return the refusal of an operation that needs a capability the endpoint's provider lacks.
     */
    static DriverException unsupported(final DriverEndpoint endpoint, final DriverFeature needed, final String operation)
    {
        return new DriverException(DriverError.UNSUPPORTED, operation + ": provider '" + endpoint.info().providerName() +
            "' lacks the capability " + needed + " (its features: " + endpoint.info().features() + ")");
    }

    /**
     * What the driver knows of a remote endpoint's liveness, beyond the library's silence: the library asks for a
     * partner it waits on that has been silent, so that a partner whose process exited fails at once and a live
     * one that only does not answer (its application computes, or is starved of CPU) is never given up. A provider
     * that probes sends at most one probe per call and answers at once from what it knows; a later call sees the
     * answer. Called under the library's lock: never blocks.
     *
     * @param peerIndex     the peer board.
     * @param endpointIndex the remote endpoint's index on that board.
     * @param sessionId     the session the library connected to (another session at that index is another
     *                      endpoint: the one connected to is gone).
     * @param out           filled and returned.
     * @return {@code out}. By default {@link PeerLiveness.State#UNKNOWN}: silence alone decides.
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} for an unknown or reclaimed index.
     */
    default PeerLiveness checkLiveness(int peerIndex, int endpointIndex, int sessionId, PeerLiveness out)
    {
        return out.unknown(0);
    }

    /**
     * Deliver up to {@code limit} ready events.
     *
     * @param handler receives each event, valid only during the call.
     * @param limit   most events to deliver.
     * @return events delivered.
     */
    int poll(EventHandler handler, int limit);

    /**
     * Block until an event is ready or the timeout passes, without spinning.
     *
     * @param timeoutNs longest wait.
     * @return true when an event is ready.
     */
    boolean await(long timeoutNs);

    /**
     * @return the endpoint's live counters.
     */
    DriverCounters counters();

    /**
     * Release every region and pending pull; pending pulls complete as failed. Idempotent.
     */
    /**
     * @return the provider options this endpoint runs with, every key its provider reads (for reports); none when
     *         the provider reads no keys.
     */
    default ProviderOptions providerOptions()
    {
        return ProviderOptions.none();
    }

    /**
     * @return counters of the provider as a whole rather than of this endpoint (pinmx.ko's module-wide ones), by
     *         name; empty when the provider keeps none.
     */
    default Map<String, Long> moduleCounters()
    {
        return Map.of();
    }

    @Override
    void close();
}
