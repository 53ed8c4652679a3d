package io.pinmx.mpj;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import mpjbuf.Buffer;
import mpjbuf.Type;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * MPJ Express's xdev device over the pinmx endpoint library: one endpoint per rank (from the job bootstrap), every
 * MPJ message one endpoint message (a {@link MessageHeader} then the static buffer, sent from its direct
 * ByteBuffer without a copy), the dynamic buffer a second message from the same sender, matched by the exact
 * source so it stays with its message under ANY_SOURCE. (context, tag, init epoch) are the match bits
 * ({@link MatchBits}); ssend is the endpoint's issend, which completes only once a receive matched.
 * <p>
 * A rank that waits longer than {@link #HEARTBEAT_INTERVAL} sends every other rank a heartbeat each interval: a
 * dead rank never acknowledges it, the endpoint gives it up after the peer timeout, and the wait fails naming it.
 * Every rank, not only the one waited on: a barrier may wait on a live rank that itself waits on the dead one, and
 * a dead rank breaks the job as MPI's default error handler (errors are fatal) has it.
 * <p>
 * Owns the endpoint of one init (opened by {@link #init}, closed by {@link #finish}), its ranks ({@link RankTable}),
 * the requests in flight and the messages probes took out of the endpoint ({@link ProbeStash}).
 */
public class PinmxDevice implements Device
{
    /** How often a rank that waits on peers checks they are alive. */
    static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long a blocked probe waits in the endpoint at a time while other receives wait for their messages: each
     * endpoint wait polls or blocks in steps of about this length anyway, so a shorter slice costs a loop, not a wake-up.
     */
    static final Duration PROBE_SLICE = Duration.ofMillis(1);
    /**
     * Longest endpoint message (header and static buffer) sent eager; longer ones go by rendezvous. niodev's protocol
     * switch limit: an MPJ send of up to about 128 KiB completes without waiting for its receiver to post, as MPJ's
     * programs (a Reduce or Scatter to a root still busy) expect of a device.
     */
    static final int EAGER_MAX_BYTES = 128 * 1024;

    private enum State
    {
        NEW,
        OPEN,
        FINISHED
    }

    private State state = State.NEW;
    private Job job;
    private JobEndpoint ranks;
    private Endpoint endpoint;
    private int rank;
    private int epoch;
    private RankTable rankTable;
    /** What this init's {@link #init} returns: every rank's id, by rank. */
    private ProcessID[] processIds;
    private HeaderPool headers;
    private Heartbeats heartbeats;
    /** Requests whose end nobody has seen yet (what {@link #peek()} looks through). */
    private final List<PinmxRequest> inFlight = new ArrayList<>();
    private ProbeStash stash;
    private DeviceProgress progress;
    private final SpinBudget spinBudget = new SpinBudget();
    /** Per destination rank: the sequence number of the next dynamic buffer sent to it in this init. */
    private int[] dynamicSequenceTo;
    /** What a wait watches: the awaited request, then the messages of receives that may still need their dynamic part. */
    private Request[] watched = new Request[16];

    /**
     * Joins the pinmx job. MPJ's {@code MPJDev.init} passes a blank rank (the job's is taken); a program that drives
     * the device itself then calls init again with its own arguments, which returns the ids of the first call if the
     * rank agrees.
     */
    @Override
    public ProcessID[] init(final String[] args) throws XDevException
    {
        if (null == args || args.length < 1)
        {
            throw new XDevException("mxdev (pinmx): init needs MPJ's arguments (rank, config, device)");
        }
        final boolean blankRank = args[0].isBlank();
        final int argRank = blankRank ? -1 : parseRank(args[0]);
        if (State.OPEN == state && (blankRank || argRank == rank))
        {
            return processIds.clone();
        }
        if (State.NEW != state)
        {
            throw new XDevException("mxdev (pinmx): init with rank argument '" + args[0] + "' called on a device " +
                "in state " + state + (State.OPEN == state ? " as rank " + rank : ""));
        }
        try
        {
            job = JvmJob.job();
            if (!blankRank && argRank != job.rank())
            {
                throw new XDevException("mxdev (pinmx): MPJ's rank argument '" + args[0] + "' is not this process's " +
                    "rank " + job.rank() + " in the pinmx job (start MPJ programs with bin/pinmx-run --mpj)");
            }
            rank = job.rank();
            epoch = JvmJob.nextEpoch();
            progress = DeviceProgress.from(System.getenv());
            if (progress.callerPolls())
            {
                JvmJob.bindRankThread(job);
            }
            ranks = JobEndpoint.open(job, System.getenv(),
                progress.tuning(DeviceProgress.eagerMaxBytes(System.getenv())));
            endpoint = ranks.endpoint();
            final Partner[] partners = new Partner[job.size()];
            dynamicSequenceTo = new int[job.size()];
            for (int r = 0; r < partners.length; r++)
            {
                partners[r] = r == rank ?
                    endpoint.connect(endpoint.address(), endpoint.options().applicationKey(), CONNECT_TIMEOUT)
                        .named("rank " + r) :
                    ranks.partner(r);
            }
            rankTable = new RankTable(rank, partners);
            headers = new HeaderPool();
            heartbeats = new Heartbeats(endpoint, partners, rank, epoch, headers.empty());
            stash = new ProbeStash(endpoint, epoch, rank, rankTable::rankOfPartner);
            processIds = rankTable.exchangeIds(job, epoch);
            state = State.OPEN;
            return processIds.clone();
        }
        catch (final XDevException ex)
        {
            closeQuietly();
            throw ex;
        }
        catch (final RuntimeException ex)
        {
            closeQuietly();
            throw new XDevException("mxdev (pinmx): init with rank argument '" + args[0] + "' failed: " +
                ex.getMessage());
        }
    }

    private static int parseRank(final String arg)
    {
        try
        {
            return Integer.parseInt(arg.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new XDevException("mxdev (pinmx): MPJ's rank argument '" + arg + "' is not a number");
        }
    }

    @Override
    public int getSendOverhead()
    {
        return 0;
    }

    @Override
    public int getRecvOverhead()
    {
        return 0;
    }

    @Override
    public ProcessID id()
    {
        checkOpen();
        return rankTable.id(rank);
    }

    /**
     * Waits for every rank (MPI.Finalize already ran its barrier through this device, so every message was
     * matched), then closes this init's endpoint; the job stays for a later MPI.Init.
     */
    @Override
    public void finish() throws XDevException
    {
        checkOpen();
        state = State.FINISHED;
        try
        {
            job.barrier();
        }
        finally
        {
            synchronized (this)
            {
                for (final PinmxRequest r : inFlight)
                {
                    r.abandon();
                }
                inFlight.clear();
                if (null != stash)
                {
                    stash.clear();
                }
            }
            closeQuietly();
        }
    }

    private void closeQuietly()
    {
        if (null != heartbeats)
        {
            heartbeats.close();
        }
        if (null != ranks)
        {
            ranks.close();
        }
        if (null != headers)
        {
            headers.close();
        }
    }

    @Override
    public mpjdev.Request isend(final Buffer buf, final ProcessID dstID, final int tag, final int context)
    {
        return post(buf, dstID, tag, context, false);
    }

    @Override
    public void send(final Buffer buf, final ProcessID dstID, final int tag, final int context)
    {
        post(buf, dstID, tag, context, false).iwait();
    }

    @Override
    public mpjdev.Request issend(final Buffer buf, final ProcessID dstID, final int tag, final int context)
    {
        return post(buf, dstID, tag, context, true);
    }

    @Override
    public void ssend(final Buffer buf, final ProcessID dstID, final int tag, final int context)
    {
        post(buf, dstID, tag, context, true).iwait();
    }

    private PinmxRequest post(
        final Buffer buf, final ProcessID dstID, final int tag, final int context, final boolean synchronous)
    {
        checkOpen();
        MatchBits.checkContext(context);
        final int destination = rankTable.rankOf(dstID, "destination");
        final int staticBytes = buf.getSize();
        final byte[] dynamicPart = buf.getDynamicBuffer();
        final int dynamicBytes = null == dynamicPart ? 0 : dynamicPart.length;
        final MemorySegment staticPart = StaticPart.region(buf, staticBytes);
        final MemorySegment header = headers.take();
        final int dynamicSequence = 0 == dynamicBytes ? 0 : nextDynamicSequence(destination);
        MessageHeader.write(header, staticBytes, dynamicBytes, rank, StaticPart.typeCode(buf, staticBytes),
            StaticPart.elements(buf, staticBytes), dynamicSequence);
        final Partner to = rankTable.partner(destination);
        final MemorySegment[] vector = {header, staticPart};
        final int count = 0 == staticBytes ? 1 : 2;
        final long bits = MatchBits.of(MatchBits.KIND_MESSAGE, epoch, context, tag);
        final Request message;
        try
        {
            message = synchronous ? endpoint.issend(to, bits, vector, count) : endpoint.isend(to, bits, vector, count);
        }
        catch (final MxException ex)
        {
            headers.give(header);
            throw sendFailure(destination, tag, context, ex);
        }
        final Request dynamic;
        try
        {
            dynamic = 0 == dynamicBytes ? null : endpoint.isend(to,
                MatchBits.dynamicPart(epoch, dynamicSequence), MemorySegment.ofArray(dynamicPart));
        }
        catch (final MxException ex)
        {
            track(PinmxRequest.send(this, buf, destination, tag, context, header, message, null));
            throw sendFailure(destination, tag, context, ex);
        }
        return track(PinmxRequest.send(this, buf, destination, tag, context, header, message, dynamic));
    }

    private synchronized int nextDynamicSequence(final int destination)
    {
        return dynamicSequenceTo[destination]++;
    }

    /** A send the endpoint refused at once (its partner failed earlier, e.g. the rank died): named by rank. */
    private XDevException sendFailure(final int destination, final int tag, final int context, final MxException ex)
    {
        return new XDevException("mxdev (pinmx) rank " + rank + ": send to " +
            PinmxRequest.peerAndMatch(destination, tag, false, context) + " failed: " + ex.getMessage());
    }

    @Override
    public mpjdev.Status recv(final Buffer buf, final ProcessID srcID, final int tag, final int context)
    {
        return irecv(buf, srcID, tag, context, new mpjdev.Status()).iwait();
    }

    @Override
    public synchronized mpjdev.Request irecv(
        final Buffer buf, final ProcessID srcID, final int tag, final int context, final mpjdev.Status status)
    {
        checkOpen();
        MatchBits.checkContext(context);
        final int source = rankTable.sourceRank(srcID);
        final boolean anyTag = ANY_TAG == tag;
        final StashedMessage stashed = stash.take(source, context, tag, anyTag);
        if (null != stashed)
        {
            return track(PinmxRequest.receiveStashed(this, buf, status, tag, context, stashed));
        }
        final MemorySegment header = headers.take();
        final MemorySegment[] vector = {header, StaticPart.region(buf, StaticPart.capacity(buf))};
        final int count = 0 == StaticPart.capacity(buf) ? 1 : 2;
        final Request message = endpoint.irecv(
            rankTable.partnerIdOrAny(source),
            MatchBits.of(MatchBits.KIND_MESSAGE, epoch, context, anyTag ? 0 : tag), MatchBits.mask(anyTag),
            vector, count);
        return track(PinmxRequest.receive(this, buf, status, source, tag, context, header, message));
    }

    /**
     * Blocks until {@link #iprobe} finds a message, moving on meanwhile every receive whose message arrives: such a
     * receive asks for its dynamic part only then (see {@link #watch}), and its sender may wait for that part to be
     * taken before it sends what the probe waits for. While receives wait for their messages the endpoint's probe
     * waits {@link #PROBE_SLICE} at a time, so a receive's arrival is seen within it; with none, a heartbeat interval.
     */
    @Override
    public mpjdev.Status probe(final ProcessID srcID, final int tag, final int context)
    {
        checkOpen();
        final int source = rankTable.sourceRank(srcID);
        final Status probed = new Status();
        long beatDueNs = System.nanoTime() + HEARTBEAT_INTERVAL.toNanos();
        mpjdev.Status found;
        while (null == (found = iprobe(srcID, tag, context)))
        {
            endpoint.probe(rankTable.partnerIdOrAny(source),
                MatchBits.of(MatchBits.KIND_MESSAGE, epoch, context, ANY_TAG == tag ? 0 : tag),
                MatchBits.mask(ANY_TAG == tag), probed, moveOnArrivals() ? PROBE_SLICE : HEARTBEAT_INTERVAL);
            final long nowNs = System.nanoTime();
            if (nowNs - beatDueNs >= 0)
            {
                beatDueNs = nowNs + HEARTBEAT_INTERVAL.toNanos();
                final String dead = heartbeats.beat();
                if (null != dead)
                {
                    throw new XDevException("mxdev (pinmx) rank " + rank + ": probe for a message from " +
                        PinmxRequest.peerAndMatch(source, tag, ANY_TAG == tag, context) + " failed: " + dead);
                }
            }
        }
        return found;
    }

    /**
     * Moves on every receive whose message arrived (it asks for its dynamic part, see {@link #watch}).
     *
     * @return true while some receive still waits for its message.
     */
    private synchronized boolean moveOnArrivals()
    {
        boolean waiting = false;
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            waiting |= null != inFlight.get(i).arrivingMessage();
        }
        return waiting;
    }

    /**
     * Reports the first message a receive with these arguments would get, leaving it for that receive (see
     * {@link ProbeStash}).
     */
    @Override
    public synchronized mpjdev.Status iprobe(final ProcessID srcID, final int tag, final int context)
    {
        checkOpen();
        MatchBits.checkContext(context);
        final int source = rankTable.sourceRank(srcID);
        heartbeats.drain();
        final StashedMessage m = stash.find(source, rankTable.partnerIdOrAny(source),
            context, tag, ANY_TAG == tag);
        return null == m ? null : described(m);
    }

    private mpjdev.Status described(final StashedMessage m)
    {
        final MemorySegment h = m.header();
        final mpjdev.Status status = new mpjdev.Status();
        describe(status, m.sourceRank(), MatchBits.tag(m.bits()), MessageHeader.staticBytes(h),
            MessageHeader.typeCode(h), MessageHeader.elements(h));
        return status;
    }

    @Override
    public mpjdev.Status iprobe(final ProcessID srcID, final ProcessID dstID, final int tag, final int context)
    {
        checkOpen();
        if (rankTable.rankOf(dstID, "destination") != rank)
        {
            throw new XDevException("mxdev (pinmx) rank " + rank + ": iprobe for messages to another rank (" +
                dstID.uuid() + ")");
        }
        return iprobe(srcID, tag, context);
    }

    @Override
    public mpjdev.Status iprobeAndFetch(
        final ProcessID srcID, final ProcessID dstID, final int tag, final int context, final Buffer buf)
    {
        final mpjdev.Status found = iprobe(srcID, dstID, tag, context);
        if (null == found)
        {
            return null;
        }
        return irecv(buf, rankTable.id(found.source), found.tag, context, found).iwait();
    }

    /**
     * @return a request that ended and nobody has seen end yet; waits for one.
     */
    @Override
    public mpjdev.Request peek() throws XDevException
    {
        final List<Request> waitable = new ArrayList<>();
        final List<PinmxRequest> waitedOn = new ArrayList<>();
        while (true)
        {
            synchronized (this)
            {
                checkOpen();
                waitable.clear();
                waitedOn.clear();
                for (final Iterator<PinmxRequest> it = inFlight.iterator(); it.hasNext(); )
                {
                    final PinmxRequest r = it.next();
                    if (r.advance())
                    {
                        it.remove();
                        return r;
                    }
                }
                if (inFlight.isEmpty())
                {
                    throw new XDevException("mxdev (pinmx) rank " + rank + ": peek with no request in flight");
                }
                for (final PinmxRequest r : inFlight)
                {
                    final Request w = r.beginWait();
                    waitedOn.add(r);
                    if (null != w)
                    {
                        waitable.add(w);
                    }
                }
            }
            final boolean progressed;
            try
            {
                progressed = !waitable.isEmpty() && progress.awaitAny(endpoint, waitable.toArray(new Request[0]),
                    waitable.size(), HEARTBEAT_INTERVAL, spinBudget) >= 0;
            }
            finally
            {
                waitedOn.forEach(PinmxRequest::endWait);
            }
            if (!progressed)
            {
                checkPeers(null);
            }
        }
    }

    /**
     * Blocks until the request ends, checking every {@link #HEARTBEAT_INTERVAL} that the ranks it waits on live.
     */
    void await(final PinmxRequest r)
    {
        while (!r.advance())
        {
            final Request w = r.beginWait();
            final boolean progressed;
            try
            {
                final int count = null == w ? 0 : watch(w);
                progressed = 1 == count ? progress.await(w, r.bytes(), HEARTBEAT_INTERVAL, spinBudget) :
                    count > 1 && progress.awaitAny(endpoint, watched, count, HEARTBEAT_INTERVAL, spinBudget) >= 0;
            }
            finally
            {
                r.endWait();
            }
            if (!progressed)
            {
                checkPeers(r);
            }
        }
        retire(r);
    }

    /**
     * Fills {@link #watched} with {@code w}, then the message of every other receive still waiting for it, after
     * moving on each receive whose message has arrived. Such a receive asks the endpoint for its dynamic buffer (if
     * its message has one) only when moved on, and its sender's send cannot complete before that part is pulled: a
     * rank waiting on something else (its own sends, a barrier) must move it on, or two ranks that post object
     * receives, then send objects and wait for their sends would wait for each other forever.
     *
     * @return how many requests {@link #watched} holds.
     */
    private synchronized int watch(final Request w)
    {
        int count = 0;
        watched[count++] = w;
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            final Request m = inFlight.get(i).arrivingMessage();
            if (null != m && m != w)
            {
                if (count == watched.length)
                {
                    watched = Arrays.copyOf(watched, 2 * count);
                }
                watched[count++] = m;
            }
        }
        return count;
    }

    private void checkPeers(final PinmxRequest waiting)
    {
        final String dead;
        synchronized (this)
        {
            heartbeats.drain();
            dead = heartbeats.beat();
        }
        if (null != dead)
        {
            if (null != waiting)
            {
                waiting.failUnlessDone(dead);
            }
            else
            {
                throw new XDevException("mxdev (pinmx) rank " + rank + ": " + dead);
            }
        }
    }

    synchronized void retire(final PinmxRequest r)
    {
        inFlight.remove(r);
    }

    private synchronized PinmxRequest track(final PinmxRequest r)
    {
        inFlight.add(r);
        return r;
    }

    Request receiveDynamicPart(final int sourceRank, final int sequence, final byte[] into)
    {
        return endpoint.irecv(rankTable.partner(sourceRank).id(), MatchBits.dynamicPart(epoch, sequence),
            MatchBits.EXACT_MASK, MemorySegment.ofArray(into));
    }

    /** Fills an MPJ status the way the MPI layer reads it (srcID is what it maps back to a rank). */
    void describe(
        final mpjdev.Status status, final int sourceRank, final int tag, final int staticBytes, final int typeCode,
        final int elements)
    {
        status.source = sourceRank;
        status.srcID = rankTable.id(sourceRank).uuid();
        status.tag = tag;
        status.countInBytes = staticBytes;
        status.numEls = elements;
        status.count = elements;
        status.type = MessageHeader.NO_TYPE == typeCode ? null : Type.getType(typeCode);
    }

    HeaderPool headers()
    {
        return headers;
    }

    int rank()
    {
        return rank;
    }

    int rankOfPartner(final int partnerId)
    {
        return rankTable.rankOfPartner(partnerId);
    }

    private void checkOpen()
    {
        if (State.OPEN != state)
        {
            throw new XDevException("mxdev (pinmx): the device is " + state + " (call MPI.Init first)");
        }
    }
}
