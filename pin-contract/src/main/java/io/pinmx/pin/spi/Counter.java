package io.pinmx.pin.spi;

import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.FrameKind;

/**
 * Everything a driver counts. The ordinal indexes {@link DriverCounters}; per-kind and per-reason
 * counters are found without allocation by {@link #sent(FrameKind)}, {@link #received(FrameKind)}
 * and {@link #dropped(DropReason)}.
 */
public enum Counter
{
    /** Frames sent, per kind. */
    FRAMES_SENT_CONNECT_REQUEST,
    /** Frames sent. */
    FRAMES_SENT_CONNECT_REPLY,
    /** Frames sent. */
    FRAMES_SENT_TINY,
    /** Frames sent. */
    FRAMES_SENT_SMALL,
    /** Frames sent. */
    FRAMES_SENT_MEDIUM_FRAG,
    /** Frames sent. */
    FRAMES_SENT_RNDV,
    /** Frames sent. */
    FRAMES_SENT_PULL,
    /** Frames sent. */
    FRAMES_SENT_PULL_REPLY,
    /** Frames sent. */
    FRAMES_SENT_NOTIFY,
    /** Frames sent. */
    FRAMES_SENT_ACK,
    /** Frames sent. */
    FRAMES_SENT_NACK,
    /** Valid frames received, per kind. */
    FRAMES_RECEIVED_CONNECT_REQUEST,
    /** Valid frames received. */
    FRAMES_RECEIVED_CONNECT_REPLY,
    /** Valid frames received. */
    FRAMES_RECEIVED_TINY,
    /** Valid frames received. */
    FRAMES_RECEIVED_SMALL,
    /** Valid frames received. */
    FRAMES_RECEIVED_MEDIUM_FRAG,
    /** Valid frames received. */
    FRAMES_RECEIVED_RNDV,
    /** Valid frames received. */
    FRAMES_RECEIVED_PULL,
    /** Valid frames received. */
    FRAMES_RECEIVED_PULL_REPLY,
    /** Valid frames received. */
    FRAMES_RECEIVED_NOTIFY,
    /** Valid frames received. */
    FRAMES_RECEIVED_ACK,
    /** Valid frames received. */
    FRAMES_RECEIVED_NACK,
    /** Dropped: shorter than the header or kind part. */
    DROPPED_SHORT,
    /** Dropped: unknown kind. */
    DROPPED_UNKNOWN_KIND,
    /** Dropped: wrong protocol version. */
    DROPPED_BAD_VERSION,
    /** Dropped: inconsistent length. */
    DROPPED_BAD_LENGTH,
    /** Dropped: field value not allowed. */
    DROPPED_BAD_FIELD,
    /** Dropped: offset or index out of range. */
    DROPPED_OUT_OF_RANGE,
    /** Dropped: addressed to an endpoint not open here. */
    DROPPED_WRONG_ENDPOINT,
    /** Dropped: wrong destination session. */
    DROPPED_WRONG_SESSION,
    /** Dropped: names an undeclared region. */
    DROPPED_UNKNOWN_REGION,
    /** Dropped on purpose by loss injection before sending. */
    DROPPED_LOSS_INJECTED_TX,
    /** Dropped on purpose by loss injection after receiving. */
    DROPPED_LOSS_INJECTED_RX,
    /** NACK frames sent in answer to refused frames. */
    NACKS_SENT,
    /** Pulls started by this endpoint. */
    PULLS_STARTED,
    /** Pulls completed. */
    PULLS_DONE,
    /** Pulls failed (their PULL_FAILED event was produced for poll). */
    PULLS_FAILED,
    /** Bytes written into local regions by completed pull frames. */
    PULL_BYTES,
    /** PULL requests sent again after their timeout. */
    PULL_REQUESTS_RESENT,
    /** PULL_REPLY frames accepted into a local region. */
    PULL_FRAMES_RECEIVED,
    /** PULL_REPLY frames that arrived twice. */
    PULL_DUPLICATE_FRAMES,
    /** PULL_REPLY frames sent while serving peers. */
    PULL_REPLY_FRAMES_SENT,
    /** PULL blocks served for peers. */
    PULLS_SERVED,
    /** Same-host pulls done with a single copy (process_vm_readv or kernel region-to-region). */
    PULL_SINGLE_COPY,
    /** Frames that found their pages not pinned yet and were dropped (overlapped pinning). */
    OVERLAP_MISSES,
    /** Frames sent through a same-host shared-memory ring. */
    SHM_FRAMES_SENT,
    /** Frames received from a same-host shared-memory ring. */
    SHM_FRAMES_RECEIVED,
    /** Times a sender waited because a shared-memory ring was full. */
    SHM_RING_FULL_WAITS,
    /** Wake-ups sent to a parked same-host receiver. */
    DOORBELLS_SENT,
    /** Frames from a new peer dropped because every peer-table entry was referenced or held. */
    DROPPED_PEER_TABLE_FULL,
    /** Idle peer-table entries reclaimed (least recently used first) to make room for a new peer. */
    PEERS_RECLAIMED,
    /** Pulls still unfinished when the endpoint closed: no end event was or can be polled for them. */
    PULLS_ABANDONED,
    /** Pulls ended by {@link DriverEndpoint#cancelPull} before their last byte (also counted in PULLS_FAILED). */
    PULLS_CANCELLED,
    /** Bytes of this endpoint's same-host pulls that the source endpoint's agent copied (user driver). */
    SHARED_PULL_BYTES_BY_SOURCE,
    /** Bytes this endpoint's agent copied into same-host peers' regions for their pulls from it (user driver). */
    SHARED_PULL_BYTES_FOR_PEERS,
    /** PULL_REPLY payloads the receive read straight into the pull's local region, with no copy after it (user driver). */
    PULL_FRAMES_PLACED,
    /**
     * UDP sends that carried two or more frames by segmentation offload: served PULL_REPLY blocks and runs of
     * {@link DriverEndpoint#sendRun} (user driver).
     */
    OFFLOADED_SENDS,
    /** Liveness probes sent to remote endpoints the library waits on and hears nothing from (user driver). */
    LIVENESS_PROBES_SENT,
    /** Liveness probes from remote endpoints this endpoint answered (user driver). */
    LIVENESS_PROBES_ANSWERED,
    /**
     * Datagrams the responder read and dropped because the event queue was full while the application did not
     * poll: read so that liveness probes behind them are answered; their senders resend them (user driver).
     */
    DROPPED_EVENT_QUEUE_FULL,
    /**
     * UDP frames and liveness probes whose CRC32C frame check failed (damaged in flight) and were dropped; their
     * senders resend them (user driver).
     */
    DROPPED_BAD_CRC,
    /** Frames sent. */
    FRAMES_SENT_PUT,
    /** Frames sent. */
    FRAMES_SENT_PUT_ACK,
    /** Frames sent. */
    FRAMES_SENT_ATOMIC,
    /** Frames sent. */
    FRAMES_SENT_ATOMIC_REPLY,
    /** Valid frames received. */
    FRAMES_RECEIVED_PUT,
    /** Valid frames received. */
    FRAMES_RECEIVED_PUT_ACK,
    /** Valid frames received. */
    FRAMES_RECEIVED_ATOMIC,
    /** Valid frames received. */
    FRAMES_RECEIVED_ATOMIC_REPLY,
    /** Puts started by this endpoint ({@link DriverEndpoint#startPut}). */
    PUTS_STARTED,
    /** Puts completed (PUT_DONE). */
    PUTS_DONE,
    /** Puts failed (PUT_FAILED). */
    PUTS_FAILED,
    /** Atomics started by this endpoint ({@link DriverEndpoint#startAtomic}). */
    ATOMICS_STARTED,
    /** Atomics completed (ATOMIC_DONE). */
    ATOMICS_DONE,
    /** Atomics failed (ATOMIC_FAILED). */
    ATOMICS_FAILED,
    /** PUT frames and ATOMIC requests sent again after their timeout. */
    REMOTE_WRITES_RESENT,
    /** Bytes peers' puts wrote into this endpoint's exposed regions. */
    PUT_BYTES_WRITTEN,
    /** Peers' atomics applied to this endpoint's exposed regions (each request once). */
    ATOMICS_APPLIED,
    /** Peers' ATOMIC requests seen before, answered again without being applied again. */
    ATOMIC_DUPLICATES,
    /** Peers' PUT frames of puts that had ended, dropped unwritten. */
    PUT_STALE,
    /** Peers' puts and atomics refused: no key or another key; nothing was touched. */
    REMOTE_BAD_KEY,
    /** Peers' puts and atomics refused: past the region's end, or a misaligned word; nothing was touched. */
    REMOTE_BAD_RANGE;

    private static final Counter[] SENT = new Counter[FrameKind.MAX_CODE + 1];
    private static final Counter[] RECEIVED = new Counter[FrameKind.MAX_CODE + 1];
    private static final Counter[] DROPPED = new Counter[DropReason.values().length];

    static
    {
        for (final FrameKind kind : FrameKind.values())
        {
            SENT[kind.code()] = valueOf("FRAMES_SENT_" + kind.name());
            RECEIVED[kind.code()] = valueOf("FRAMES_RECEIVED_" + kind.name());
        }
        for (final DropReason reason : DropReason.values())
        {
            if (reason != DropReason.NONE)
            {
                DROPPED[reason.ordinal()] = valueOf("DROPPED_" + reason.name());
            }
        }
    }

    /**
     * @param kind frame kind.
     * @return the frames-sent counter of that kind.
     */
    public static Counter sent(final FrameKind kind)
    {
        return SENT[kind.code()];
    }

    /**
     * @param kind frame kind.
     * @return the frames-received counter of that kind.
     */
    public static Counter received(final FrameKind kind)
    {
        return RECEIVED[kind.code()];
    }

    /**
     * @param reason a drop reason other than {@link DropReason#NONE}.
     * @return the counter of frames dropped for it.
     * @throws IllegalArgumentException for {@link DropReason#NONE}.
     */
    public static Counter dropped(final DropReason reason)
    {
        final Counter counter = DROPPED[reason.ordinal()];
        if (null == counter)
        {
            throw new IllegalArgumentException("no drop counter for " + reason);
        }
        return counter;
    }
}
