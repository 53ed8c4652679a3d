package io.pinmx.pin.spi;

import java.lang.foreign.MemorySegment;

/**
 * An open endpoint of a provider. Operations throw {@link DriverException} naming what was
 * wrong; after {@link #close()} every operation but {@code close}, {@code address}, {@code info}
 * and {@code counters} throws {@link DriverError#ENDPOINT_CLOSED}.
 * {@link #poll} and {@link #await} are called by one thread at a time; sends, pulls and region
 * operations may come from any thread.
 */
public interface DriverEndpoint extends AutoCloseable
{
    /**
     * @return this endpoint's board address, index and session id.
     */
    EndpointAddress address();

    /**
     * @return the provider's description.
     */
    DriverInfo info();

    /**
     * @param board a remote (or local) board.
     * @return its peer index, added on first use.
     */
    int peerIndex(BoardAddress board);

    /**
     * @param peerIndex a peer index returned by {@link #peerIndex(BoardAddress)} or carried by an event.
     * @return the board.
     * @throws DriverException {@link DriverError#UNKNOWN_PEER} for an unknown index.
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
     */
    void send(int peerIndex, MemorySegment header, MemorySegment payload);

    /**
     * Start a pull; completion arrives as PULL_DONE or PULL_FAILED with the spec's handle. The
     * spec may be reused as soon as this returns.
     *
     * @param spec what to pull.
     * @throws DriverException for an unknown local region, a range past its end, an unknown peer.
     */
    void startPull(PullSpec spec);

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
    @Override
    void close();
}
