package io.pinmx.mx;

import io.pinmx.mx.buffer.PooledBuffer;
import io.pinmx.mx.match.PostedReceive;
import io.pinmx.pin.wire.NotifyStatus;
import io.pinmx.regioncache.RegionLease;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive in flight. Requests come from the endpoint's pool: read the
 * {@link #status()} once done, then {@link #release()} it. Using a request after its release
 * is a caller bug and fails with an exception naming the request.
 */
public final class Request
{
    /** How the request's bytes travel. */
    enum Kind
    {
        SEND_EAGER,
        SEND_RENDEZVOUS,
        RECEIVE,
        /** A one-sided read: the driver pulls pieces of a partner's exposed region ({@link RemoteReads}). */
        READ,
        /** A one-sided put into a partner's region exposed for writes ({@link RemoteWrites}). */
        WRITE,
        /** A one-sided atomic on a partner's region exposed for writes ({@link RemoteWrites}). */
        ATOMIC
    }

    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(Request.class, "state", RequestState.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Endpoint endpoint;
    final int index;
    int generation;
    volatile RequestState state = RequestState.FREE;
    Kind kind;
    Partner partner;
    long matchInfo;
    boolean synchronous;
    final SegmentVector vector = new SegmentVector();
    final PostedReceive posted = new PostedReceive(this);
    final RegionLease lease = new RegionLease();
    final Status status = new Status();
    /** Contiguous native bytes an eager send reads its frames from. */
    MemorySegment sendData = MemorySegment.NULL;
    final FragmentViews fragments = new FragmentViews();
    PooledBuffer staging;
    long messageLength;
    int framesTotal;
    int framesUnacked;
    /** Frames of an eager send the driver put where nothing can lose them. */
    int framesLossless;
    SendHold sendHold = SendHold.NONE;
    int firstSeq;
    int senderHandle;
    int remoteRegionId;
    long remoteOffset;
    long pullBytes;
    int pullRetries;
    /** The driver refused to start this request's pull for want of room, first at {@link #pullFirstRefusedNs}. */
    boolean pullStartRefused;
    long pullFirstRefusedNs;
    /** A read's remote pieces (the caller's arrays, unchanged until it completes), in destination order. */
    long[] readOffsets;
    long[] readLengths;
    int readPieces;
    /** The key of the region a read pulls from when it was exposed for writes, else 0. */
    long readKey;
    /** The first piece of the pull in flight and the one after its run of remote-contiguous pieces. */
    int readFrom;
    int readTo;
    /** Where the pull in flight lands in the destination vector. */
    long readDestinationOffset;
    Rendezvous.SendState rendezvousSend = Rendezvous.SendState.NONE;
    /** The receiver's outcome from NOTIFY: anything but OK/TRUNCATED fails the send. */
    NotifyStatus notifyStatus;
    Rendezvous.ReceiveState rendezvousReceive = Rendezvous.ReceiveState.NONE;
    /**
     * Why the request fails once its running pull ends ({@link RequestPool#fail}): until then the driver may still
     * write into its buffer, so its owner must not see it done. Null when no failure waits.
     */
    String failureAtPullEnd;
    /** When {@link #failureAtPullEnd} began to wait, on the endpoint's clock. */
    long failureHeldSinceNs;
    /** Links in the {@link RequestPool}'s completion queue. */
    Request completedPrev;
    Request completedNext;
    volatile Thread waiter;

    Request(final Endpoint endpoint, final int index)
    {
        this.endpoint = endpoint;
        this.index = index;
    }

    /**
     * @return the 32-bit handle naming this use of the request on the wire (send and pull handles).
     */
    int handle()
    {
        return (generation << 16) | index;
    }

    public RequestState state()
    {
        return state;
    }

    /**
     * @return true once completed, failed or cancelled; makes progress in {@link ProgressMode#CALLER} mode.
     */
    public boolean test()
    {
        if (state.isDone())
        {
            return true;
        }
        endpoint.progressFromCaller();
        return state.isDone();
    }

    /**
     * Waits until the request is done or the timeout passes.
     *
     * @return true if done.
     */
    public boolean await(final Duration timeout)
    {
        return endpoint.awaitRequest(this, timeout.toNanos());
    }

    /**
     * Waits until the request is done or the timeout passes, polling the endpoint itself for the first
     * {@code pollFor} of the wait instead of the endpoint's {@code callerPollNs}: longer for a thread that expects
     * its next message soon (a server between requests), zero for one that polled already.
     *
     * @return true if done.
     * @throws IllegalArgumentException naming pollFor if it is negative.
     */
    public boolean await(final Duration timeout, final Duration pollFor)
    {
        return await(timeout, pollFor, true);
    }

    /**
     * As {@link #await(Duration, Duration)}; with {@code ackWhenIdle} false, this wait's own rounds leave the acks
     * they owe to the ack delay, or to the next message to that partner, where a round that finds nothing would send
     * them at once: for a server whose last request's sender does not wait for its ack and may follow it with a
     * request whose reply will carry it (a small put, then a fence).
     *
     * @return true if done.
     * @throws IllegalArgumentException naming pollFor if it is negative.
     */
    public boolean await(final Duration timeout, final Duration pollFor, final boolean ackWhenIdle)
    {
        if (pollFor.isNegative())
        {
            throw new IllegalArgumentException("pollFor = " + pollFor + ": must be >= 0");
        }
        return endpoint.awaitRequest(this, timeout.toNanos(), pollFor.toNanos(), ackWhenIdle);
    }

    /**
     * Waits until done and throws if the request failed.
     *
     * @return the status.
     * @throws MxException naming the cause if it failed, or the request and timeout if it did not finish.
     */
    public Status awaitOrThrow(final Duration timeout)
    {
        if (!await(timeout))
        {
            throw new MxException(this + " not done after " + timeout.toMillis() + " ms");
        }
        if (RequestState.FAILED == state)
        {
            throw new MxException(status.error);
        }
        return status;
    }

    /**
     * @return the outcome; final once {@link #state()} is done.
     */
    public Status status()
    {
        return status;
    }

    /**
     * Withdraws a receive that has not matched yet.
     *
     * @return true if it was withdrawn (now CANCELLED); false if it already matched or is a send.
     */
    public boolean cancel()
    {
        return endpoint.cancel(this);
    }

    /**
     * Returns the request to the pool.
     *
     * @throws IllegalStateException if it is not done yet.
     */
    public void release()
    {
        endpoint.release(this);
    }

    /**
     * Sets the state with a release store: for moves to a state nobody parks for. A move to a done state where a
     * waiter may park on the request (DEDICATED) is a volatile store, which the waiter's handshake needs (it
     * publishes itself, then reads the state).
     */
    void setStateReleased(final RequestState next)
    {
        STATE.setRelease(this, next);
    }

    void wake()
    {
        final Thread t = waiter;
        if (null != t)
        {
            LockSupport.unpark(t);
        }
    }

    public String toString()
    {
        return "request " + Integer.toHexString(handle()) + " (" + kind + ' ' + state + ", matchInfo 0x" +
            Long.toHexString(matchInfo) + ", " + messageLength + " bytes" +
            (null != partner ? ", " + partner.describe() : "") + ')';
    }
}
