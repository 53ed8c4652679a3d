package io.pinmx.mpj;

import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import mpjbuf.Buffer;
import xdev.XDevException;

import java.lang.foreign.MemorySegment;

/**
 * One MPJ send or receive over the endpoint: the message (header and static buffer in one endpoint message) and,
 * when the MPJ buffer has a dynamic part, that part as a second message from the same sender. Owns its endpoint
 * requests until it observes their end, and runs MPJ's completion handlers exactly once, on the first
 * {@link #iwait()} or successful {@link #itest()}.
 */
final class PinmxRequest extends mpjdev.Request
{
    enum Phase
    {
        /** The message (send: and its dynamic part) is in flight. */
        MESSAGE,
        /** Receive: the message arrived, its dynamic part is still coming. */
        DYNAMIC_PART,
        DONE,
        FAILED,
        CANCELLED
    }

    private final PinmxDevice device;
    private final boolean receive;
    private final Buffer buffer;
    private final mpjdev.Status status;
    /** Destination (send), the named source (receive), or -1 for ANY_SOURCE. */
    private final int peerRank;
    /** The tag sent, or asked for (mpjdev's ANY_TAG included). */
    private final int tag;
    private final int context;
    private Phase phase = Phase.MESSAGE;
    private Request message;
    private Request dynamic;
    private MemorySegment header;
    private byte[] dynamicBytes;
    private String failure;
    private boolean handlersRan;
    /**
     * Threads inside {@link PinmxDevice#await} or {@link PinmxDevice#peek} blocked on one of this request's endpoint
     * requests. Another thread (or the waiter's own look at other receives) may move this request on meanwhile; the
     * endpoint requests it is done with then stay out of the pool until the last such waiter is back, or a waiter
     * would stay blocked on a request that is over, or one the pool handed to another operation.
     */
    private int waiters;
    /** Endpoint requests this one is done with while {@link #waiters} were blocked: its message and dynamic part. */
    private final Request[] heldForWaiters = new Request[2];
    private int held;

    private PinmxRequest(
        final PinmxDevice device, final boolean receive, final Buffer buffer, final mpjdev.Status status,
        final int peerRank, final int tag, final int context)
    {
        this.device = device;
        this.receive = receive;
        this.buffer = buffer;
        this.status = null != status ? status : new mpjdev.Status();
        this.peerRank = peerRank;
        this.tag = tag;
        this.context = context;
    }

    static PinmxRequest send(
        final PinmxDevice device, final Buffer buffer, final int destination, final int tag, final int context,
        final MemorySegment header, final Request message, final Request dynamic)
    {
        final PinmxRequest r = new PinmxRequest(device, false, buffer, null, destination, tag, context);
        r.header = header;
        r.message = message;
        r.dynamic = dynamic;
        r.status.source = destination;
        r.status.tag = tag;
        return r;
    }

    static PinmxRequest receive(
        final PinmxDevice device, final Buffer buffer, final mpjdev.Status status, final int source, final int tag,
        final int context, final MemorySegment header, final Request message)
    {
        final PinmxRequest r = new PinmxRequest(device, true, buffer, status, source, tag, context);
        r.header = header;
        r.message = message;
        return r;
    }

    /** A receive that matched a message a probe had already taken out of the endpoint. */
    static PinmxRequest receiveStashed(
        final PinmxDevice device, final Buffer buffer, final mpjdev.Status status, final int tag, final int context,
        final StashedMessage stashed)
    {
        final PinmxRequest r = new PinmxRequest(device, true, buffer, status, stashed.sourceRank(), tag, context);
        synchronized (r)
        {
            final MemorySegment h = stashed.header();
            final int staticBytes = MessageHeader.staticBytes(h);
            if (r.fits(staticBytes, stashed.sourceRank(), MatchBits.tag(stashed.bits())))
            {
                StaticPart.region(buffer, staticBytes).copyFrom(stashed.staticPart().asSlice(0, staticBytes));
                r.arrived(h, stashed.sourceRank(), MatchBits.tag(stashed.bits()));
            }
        }
        return r;
    }

    int peerRank()
    {
        return peerRank;
    }

    /** Bytes of static buffer this request moves: the message (send) or the room for it (receive). */
    int bytes()
    {
        return receive ? StaticPart.capacity(buffer) : buffer.getSize();
    }

    /** The endpoint request a waiter can block on, or null when none is in flight. */
    synchronized Request inFlight()
    {
        return switch (phase)
        {
            case MESSAGE -> null != message ? message : dynamic;
            case DYNAMIC_PART -> dynamic;
            default -> null;
        };
    }

    /**
     * A waiter is about to block on {@link #inFlight()}, which it gets; call {@link #endWait()} when it is back.
     */
    synchronized Request beginWait()
    {
        waiters++;
        return inFlight();
    }

    /** A waiter of {@link #beginWait()} is back: what this request finished with meanwhile goes back to the pool. */
    synchronized void endWait()
    {
        if (0 == --waiters)
        {
            releaseHeld();
        }
    }

    private void releaseHeld()
    {
        while (held > 0)
        {
            heldForWaiters[--held].release();
            heldForWaiters[held] = null;
        }
    }

    private void releaseAfterWaits(final Request r)
    {
        if (0 == waiters)
        {
            r.release();
        }
        else
        {
            heldForWaiters[held++] = r;
        }
    }

    /**
     * A receive whose message has not arrived: its endpoint request, to watch. A receive whose message arrived is
     * moved on first (asking for its dynamic part, if any), and is not watched any more.
     *
     * @return the message request to watch, or null (a send, or a receive past its message).
     */
    synchronized Request arrivingMessage()
    {
        if (!receive || Phase.MESSAGE != phase || null == message)
        {
            return null;
        }
        if (message.state().isDone())
        {
            advance();
            return null;
        }
        return message;
    }

    /**
     * Moves the request on as far as its endpoint requests allow.
     *
     * @return true once it has ended (done, failed or cancelled).
     */
    synchronized boolean advance()
    {
        if (Phase.MESSAGE == phase)
        {
            if (receive)
            {
                if (!message.test())
                {
                    return false;
                }
                messageArrived();
            }
            else
            {
                if ((null != message && !message.test()) || (null != dynamic && !dynamic.test()))
                {
                    return false;
                }
                sent();
            }
        }
        if (Phase.DYNAMIC_PART == phase)
        {
            if (!dynamic.test())
            {
                return false;
            }
            final String error = dynamic.status().error();
            releaseAfterWaits(dynamic);
            dynamic = null;
            if (null != error)
            {
                fail(operation() + " failed in its dynamic buffer from rank " + status.source + ": " + error);
            }
            else
            {
                buffer.setDynamicBuffer(dynamicBytes);
                phase = Phase.DONE;
            }
        }
        return true;
    }

    /**
     * Ends the request with an error (a rank it waits on died) unless it already ended.
     */
    synchronized void failUnlessDone(final String why)
    {
        if (Phase.MESSAGE == phase || Phase.DYNAMIC_PART == phase)
        {
            if (null != message && message.cancel())
            {
                releaseAfterWaits(message);
                message = null;
            }
            fail(operation() + " failed: " + why);
        }
    }

    private void sent()
    {
        String error = null;
        if (null != message)
        {
            error = message.status().error();
            releaseAfterWaits(message);
            message = null;
        }
        if (null != dynamic)
        {
            final String e = dynamic.status().error();
            error = null != error ? error : e;
            releaseAfterWaits(dynamic);
            dynamic = null;
        }
        device.headers().give(header);
        header = null;
        if (null != error)
        {
            fail(operation() + " failed: " + error);
        }
        else
        {
            phase = Phase.DONE;
        }
    }

    private void messageArrived()
    {
        final Status s = message.status();
        final String error = s.error();
        final boolean truncated = s.truncated();
        final long length = s.messageLength();
        final int sourceRank = device.rankOfPartner(s.source());
        final int tag = MatchBits.tag(s.matchInfo());
        releaseAfterWaits(message);
        message = null;
        if (null != error)
        {
            device.headers().give(header);
            fail(operation() + " failed: " + error);
            return;
        }
        if (truncated || length < MessageHeader.BYTES)
        {
            device.headers().give(header);
            fail(operation() + " failed: a message of " + Math.max(0, length - MessageHeader.BYTES) +
                " bytes from rank " + sourceRank + " (tag " + tag + ") does not fit the receive buffer of " +
                StaticPart.capacity(buffer) + " bytes");
            return;
        }
        arrived(header, sourceRank, tag);
        device.headers().give(header);
        header = null;
    }

    private boolean fits(final int staticBytes, final int sourceRank, final int tag)
    {
        if (staticBytes <= StaticPart.capacity(buffer))
        {
            return true;
        }
        fail(operation() + " failed: a message of " + staticBytes + " bytes from rank " + sourceRank + " (tag " + tag +
            ") does not fit the receive buffer of " + StaticPart.capacity(buffer) + " bytes");
        return false;
    }

    private void arrived(final MemorySegment h, final int sourceRank, final int tag)
    {
        final int staticBytes = MessageHeader.staticBytes(h);
        buffer.setSize(staticBytes);
        device.describe(status, sourceRank, tag, staticBytes, MessageHeader.typeCode(h), MessageHeader.elements(h));
        final int dynamicLength = MessageHeader.dynamicBytes(h);
        if (dynamicLength > 0)
        {
            dynamicBytes = new byte[dynamicLength];
            dynamic = device.receiveDynamicPart(sourceRank, MessageHeader.dynamicSequence(h), dynamicBytes);
            phase = Phase.DYNAMIC_PART;
        }
        else
        {
            buffer.setDynamicBuffer(null);
            phase = Phase.DONE;
        }
    }

    private void fail(final String why)
    {
        failure = "mxdev (pinmx) rank " + device.rank() + ": " + why;
        phase = Phase.FAILED;
    }

    /**
     * Runs the completion handlers the first time only.
     *
     * @throws XDevException with the cause if the request failed.
     */
    private synchronized mpjdev.Status ended()
    {
        if (Phase.FAILED == phase)
        {
            throw new XDevException(failure);
        }
        if (!handlersRan)
        {
            handlersRan = true;
            complete(status);
        }
        return status;
    }

    @Override
    public mpjdev.Status iwait()
    {
        device.await(this);
        return ended();
    }

    @Override
    public mpjdev.Status itest()
    {
        if (!advance())
        {
            return null;
        }
        device.retire(this);
        return ended();
    }

    @Override
    public void free()
    {
        // The endpoint requests are released when the device sees them end (iwait, itest, peek or finish).
    }

    @Override
    public boolean isnull()
    {
        return false;
    }

    @Override
    public synchronized boolean cancel()
    {
        if (!receive || Phase.MESSAGE != phase || !message.cancel())
        {
            return false;
        }
        releaseAfterWaits(message);
        message = null;
        device.headers().give(header);
        header = null;
        phase = Phase.CANCELLED;
        return true;
    }

    /** At finish: releases what has ended; the endpoint's close takes the rest. */
    synchronized void abandon()
    {
        if (null != message && message.state().isDone())
        {
            message.release();
        }
        if (null != dynamic && dynamic.state().isDone())
        {
            dynamic.release();
        }
        message = null;
        dynamic = null;
        releaseHeld();
        if (Phase.MESSAGE == phase || Phase.DYNAMIC_PART == phase)
        {
            fail(operation() + " failed: the device finished before it ended");
        }
    }

    /** What a failure message names: the operation, the peer rank, the tag and the context. */
    String operation()
    {
        return (receive ? "receive from " : "send to ") +
            peerAndMatch(peerRank, tag, receive && xdev.Device.ANY_TAG == tag, context);
    }

    /**
     * How the device's failure messages name a peer and what a message is matched by: "rank 3 (tag 1, context 3)",
     * "any rank (any tag, context 3)".
     *
     * @param peerRank a rank, or negative for any rank.
     */
    static String peerAndMatch(final int peerRank, final int tag, final boolean anyTag, final int context)
    {
        return (peerRank < 0 ? "any rank" : "rank " + peerRank) + " (" + (anyTag ? "any tag" : "tag " + tag) +
            ", context " + context + ")";
    }

    @Override
    public String toString()
    {
        return operation() + " " + phase;
    }
}
