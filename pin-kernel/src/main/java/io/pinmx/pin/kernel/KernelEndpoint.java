package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.AwaitLoop;
import io.pinmx.pin.provider.ContractChecks;
import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.ProviderOptions;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;
import io.pinmx.pin.wire.FrameKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;

/**
 * One open endpoint of the kernel provider: one open file of /dev/pinmx, said hello to, bound to an interface and
 * endpoint index, with its event ring mapped. Every operation is one ioctl (declare, destroy, send, pull, wait)
 * or a read of the mapped ring (poll); the module runs the pull engine, so there is no progress thread.
 * <p>
 * Lifecycle: OPEN until {@link #close()}, then CLOSED. Operations hold the read side of a {@link StampedLock};
 * close takes the write side, so the ring is unmapped and the file descriptor closed only when no operation is
 * inside them (a closed descriptor number could otherwise be reused by another open under a racing ioctl).
 * Blocking waits are sliced to {@link #WAIT_SLICE_NS} so close never waits long. The lock is not reentrant:
 * close from inside an event handler would wait for its own poll, so it is refused there.
 */
public final class KernelEndpoint implements DriverEndpoint
{
    /** Provider name in {@link DriverInfo}. */
    public static final String NAME = "kernel";
    static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int MEDIUM_FRAG_HEADER_BYTES = FrameKind.MEDIUM_FRAG.headerBytes();
    private static final int PULL_REPLY_HEADER_BYTES = FrameKind.PULL_REPLY.headerBytes();

    private final PinmxDevice device;
    private final String interfaceName;
    private final long features;
    private final int maxRegions;
    private final EndpointAddress address;
    private final DriverInfo info;
    private final ProviderOptions providerOptions;
    private final MemorySegment ring;
    private final KernelEventRing events;
    private final KernelOneSided oneSided;
    private final KernelPulls pulls;
    private final DriverCounters counters = new DriverCounters();
    private final PeerRegistry<MacPeer> peers = new PeerRegistry<>(counters);
    private final StampedLock lifecycle = new StampedLock();
    private final AwaitLoop awaitLoop = new AwaitLoop(this::eventReady, this::blockAwaiting);
    private volatile boolean closed;

    private KernelEndpoint(final KernelBinding bound, final KernelDriverOptions options, final String chosenBecause)
    {
        this.device = bound.device();
        this.interfaceName = options.interfaceName();
        this.providerOptions = KernelProviderOptions.describe(options);
        this.features = bound.features();
        this.maxRegions = bound.maxRegions();
        this.address = new EndpointAddress(bound.board(), bound.index(), bound.session());
        this.ring = bound.ring();
        this.events = new KernelEventRing(ring, peers, counters);
        this.oneSided = new KernelOneSided(this, device);
        this.pulls = new KernelPulls(this, device, counters, options.pullsOnWire());
        final int linkBytes = Math.min(bound.mtu(), PinmxAbi.MXOE_MAX_BYTES);
        this.info = new DriverInfo(NAME, KernelDriver.DESCRIPTION + "; interface " + interfaceName + " (MTU " +
            bound.mtu() + "), module features " + PinmxAbi.describeFeatures(features) + "; chosen because " +
            chosenBecause, true, bound.maxSegments(), maxRegions, EndpointAddress.MAX_ENDPOINT_INDEX + 1,
            linkBytes - MEDIUM_FRAG_HEADER_BYTES, linkBytes - PULL_REPLY_HEADER_BYTES, ModuleFeatures.contractFeatures(features));
    }

    /**
     * Open the device, bind an endpoint ({@link KernelBinding#open}) and wrap it.
     *
     * @throws DriverException naming the device, the step and the errno.
     */
    static KernelEndpoint open(final int endpointIndex, final KernelDriverOptions options, final String chosenBecause)
    {
        return new KernelEndpoint(KernelBinding.open(endpointIndex, options), options, chosenBecause);
    }

    /**
     * @param feature a PinmxAbi.FEATURE_* bit.
     * @return true when the module announced it.
     */
    public boolean hasModuleFeature(final long feature)
    {
        return (features & feature) == feature;
    }

    /**
     * Refuses an operation whose module feature the bound pinmx.ko does not announce, naming the feature and what
     * the module announces (ENOTTY: the module has no ioctl for it).
     *
     * @param feature a PinmxAbi.FEATURE_* bit.
     * @param kind the error kind the operation's callers expect for it.
     */
    void requireModuleFeature(final long feature, final DriverError kind, final String operation)
    {
        if (!hasModuleFeature(feature))
        {
            throw new DriverException(kind, Errno.ENOTTY, operation + ": pinmx.ko on " + device.path() + " lacks " +
                PinmxAbi.describeFeatures(feature) + " (it announces " + PinmxAbi.describeFeatures(features) + ")", null);
        }
    }

    @Override
    public EndpointAddress address()
    {
        return address;
    }

    @Override
    public DriverInfo info()
    {
        return info;
    }

    @Override
    public ProviderOptions providerOptions()
    {
        return providerOptions;
    }

    @Override
    public int acquirePeer(final BoardAddress board)
    {
        checkOpen("acquirePeer");
        if (null == board || board.kind() != BoardAddress.Kind.ETHERNET)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "acquirePeer: the kernel driver reaches eth: boards " +
                "only, not " + board);
        }
        return peers.acquire(board, new MacPeer.Key().set(MacPeer.macOf(board)), address).index();
    }

    @Override
    public void retainPeer(final int peerIndex)
    {
        checkOpen("retainPeer");
        peers.retainOrThrow(peerIndex, address);
    }

    @Override
    public void releasePeer(final int peerIndex)
    {
        checkOpen("releasePeer");
        peers.release(peerIndex, "releasePeer", address);
    }

    @Override
    public BoardAddress peer(final int peerIndex)
    {
        checkOpen("peer");
        return peers.entryOrThrow("peer", peerIndex, address).board();
    }

    @Override
    public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
    {
        return declare(segments, count, accessFlags,
            (accessFlags & RegionAccess.WRITE) != 0 ? PinmxAbi.DECLARE_WRITABLE : 0);
    }

    /**
     * Declares with PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE and reads the key the module drew
     * (PINMX_IOC_REGION_INFO); a region whose key cannot be read is destroyed again.
     */
    @Override
    public RemoteRegion declareRemoteRegion(final MemorySegment[] segments, final int count)
    {
        requireModuleFeature(PinmxAbi.FEATURE_NET_PUT, DriverError.UNSUPPORTED, "declareRemoteRegion");
        final int regionId = declare(segments, count, RegionAccess.READ_WRITE,
            PinmxAbi.DECLARE_WRITABLE | PinmxAbi.DECLARE_REMOTE);
        try
        {
            return new RemoteRegion(regionId, regionInfo(regionId).get(ValueLayout.JAVA_LONG, PinmxAbi.REGION_INFO_KEY));
        }
        catch (final RuntimeException e)
        {
            destroyRegion(regionId);
            throw e;
        }
    }

    @Override
    public void cancelPull(final int pullHandle)
    {
        pulls.cancel(pullHandle);
    }

    @Override
    public void startPut(final PutSpec spec)
    {
        oneSided.put(spec);
    }

    @Override
    public void startAtomic(final AtomicSpec spec)
    {
        oneSided.atomic(spec);
    }

    @Override
    public void holdRemoteWrites(final int regionId, final boolean hold)
    {
        oneSided.holdWrites(regionId, hold);
    }

    private int declare(final MemorySegment[] segments, final int count, final int accessFlags, final int moduleFlags)
    {
        ContractChecks.declare(segments, count, PinmxAbi.MAX_SEGMENTS, accessFlags);
        final IoctlScratch scratch = IoctlScratch.get();
        for (int i = 0; i < count; i++)
        {
            final MemorySegment segment = segments[i];
            final long at = i * PinmxAbi.SEGMENT.byteSize();
            scratch.segments.set(ValueLayout.JAVA_LONG, at + PinmxAbi.SEGMENT_VADDR, segment.address());
            scratch.segments.set(ValueLayout.JAVA_LONG, at + PinmxAbi.SEGMENT_LEN, segment.byteSize());
        }
        final MemorySegment declare = scratch.struct(PinmxAbi.DECLARE.byteSize());
        declare.set(ValueLayout.JAVA_LONG, PinmxAbi.DECLARE_SEGMENTS, scratch.segments.address());
        declare.set(ValueLayout.JAVA_INT, PinmxAbi.DECLARE_NR_SEGMENTS, count);
        declare.set(ValueLayout.JAVA_INT, PinmxAbi.DECLARE_FLAGS, moduleFlags);
        final int rc = ioctl("declareRegion", scratch, PinmxAbi.IOC_DECLARE, declare);
        if (rc == -Errno.ENOSPC)
        {
            throw new DriverException(DriverError.NO_RESOURCES, Errno.ENOSPC, "declareRegion: endpoint " + address +
                " holds its " + maxRegions + " regions already (" + Errno.describe(Errno.ENOSPC) + ")", null);
        }
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_DECLARE", count + " segments, first at 0x" +
                Long.toHexString(segments[0].address()) + ", " + RegionAccess.describe(accessFlags));
        }
        return declare.get(ValueLayout.JAVA_INT, PinmxAbi.DECLARE_REGION_ID);
    }

    @Override
    public void destroyRegion(final int regionId)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment ref = scratch.struct(PinmxAbi.REGION_REF.byteSize());
        ref.set(ValueLayout.JAVA_INT, PinmxAbi.REGION_REF_REGION_ID, regionId);
        final int rc = ioctl("destroyRegion", scratch, PinmxAbi.IOC_DESTROY, ref);
        if (rc == -Errno.ENOENT)
        {
            throw new DriverException(DriverError.UNKNOWN_REGION, Errno.ENOENT, "destroyRegion: region " + regionId +
                " is not declared on endpoint " + address, null);
        }
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_DESTROY", "region " + regionId);
        }
    }

    /**
     * @param regionId a region of this endpoint.
     * @return pages of the region pinned now (PINMX_IOC_REGION_INFO).
     */
    public long pinnedPages(final int regionId)
    {
        return regionInfo(regionId).get(ValueLayout.JAVA_LONG, PinmxAbi.REGION_INFO_PINNED_PAGES);
    }

    /** @return the thread's struct pinmx_region_info, valid until its next ioctl. */
    private MemorySegment regionInfo(final int regionId)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment query = scratch.struct(PinmxAbi.REGION_INFO.byteSize());
        query.set(ValueLayout.JAVA_INT, PinmxAbi.REGION_INFO_REGION_ID, regionId);
        final int rc = ioctl("regionInfo", scratch, PinmxAbi.IOC_REGION_INFO, query);
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_REGION_INFO", "region " + regionId);
        }
        return query;
    }

    /**
     * Read the module-wide counters (PINMX_IOC_COUNTERS), indexed by {@link KernelCounter#ordinal()}.
     *
     * @param into at least {@link PinmxAbi#COUNTERS_MAX} longs.
     * @return {@code into}.
     */
    public long[] moduleCounters(final long[] into)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment values = scratch.struct(PinmxAbi.COUNTERS.byteSize());
        final int rc = ioctl("moduleCounters", scratch, PinmxAbi.IOC_COUNTERS, values);
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_COUNTERS", "module counters");
        }
        MemorySegment.copy(values, ValueLayout.JAVA_LONG, PinmxAbi.COUNTERS_VALUE, into, 0, PinmxAbi.COUNTERS_MAX);
        return into;
    }

    /**
     * @return the module-wide counters (PINMX_IOC_COUNTERS) by {@link KernelCounter} name, in their order.
     */
    @Override
    public Map<String, Long> moduleCounters()
    {
        final long[] values = moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
        final Map<String, Long> byName = new LinkedHashMap<>();
        for (final KernelCounter counter : KernelCounter.values())
        {
            byName.put(counter.name(), values[counter.ordinal()]);
        }
        return byName;
    }

    @Override
    public boolean send(final int peerIndex, final MemorySegment frameHeader, final MemorySegment payload)
    {
        final MacPeer peer = peers.entryOrThrow("send", peerIndex, address);
        final FrameKind kind = ContractChecks.send(peerIndex, frameHeader, payload, PinmxAbi.MXOE_MAX_BYTES,
            "the link limit");
        final MemorySegment body = null == payload ? MemorySegment.NULL : payload;
        final long frameBytes = frameHeader.byteSize() + body.byteSize();
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment send = scratch.send;
        send.set(ValueLayout.JAVA_LONG, PinmxAbi.SEND_HEADER, nativeAddress(frameHeader, scratch.stagedHeader));
        send.set(ValueLayout.JAVA_LONG, PinmxAbi.SEND_PAYLOAD,
            body.byteSize() == 0 ? 0 : nativeAddress(body, scratch.stagedPayload));
        send.set(ValueLayout.JAVA_INT, PinmxAbi.SEND_HEADER_LEN, (int)frameHeader.byteSize());
        send.set(ValueLayout.JAVA_INT, PinmxAbi.SEND_PAYLOAD_LEN, (int)body.byteSize());
        putMac(send, PinmxAbi.SEND_DST_MAC, peer.mac());
        final int rc = ioctlHot("send", scratch, PinmxAbi.IOC_SEND, send);
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_SEND", kind + " of " + frameBytes + " bytes to peer " + peerIndex +
                " (" + peer.board() + " endpoint " +
                ContractChecks.destinationEndpoint(frameHeader) + ")" +
                (rc == -Errno.EINVAL ? "; the module checks the header as a receiver would" : ""));
        }
        counters.increment(Counter.sent(kind));
        return false;
    }

    @Override
    public void startPull(final PullSpec spec)
    {
        pulls.start(spec);
    }

    /** An ioctl that starts an operation on a peer. */
    @FunctionalInterface
    interface PeerIoctl<S>
    {
        /** @return 0, or minus the errno the module refused with. */
        int issue(S spec, MacPeer peer);
    }

    /**
     * Issues an ioctl holding the peer's entry: a started operation keeps the hold until its end event is delivered
     * ({@link KernelEventRing}); a refusal or an exception releases it at once.
     *
     * @return the ioctl's result: 0, or minus an errno.
     */
    <S> int issueHoldingPeer(final String operation, final int peerIndex, final S spec, final PeerIoctl<S> ioctl)
    {
        final MacPeer peer = peers.holdOrThrow(operation, peerIndex, address);
        boolean started = false;
        try
        {
            final int rc = ioctl.issue(spec, peer);
            started = rc == 0;
            return rc;
        }
        finally
        {
            if (!started)
            {
                peers.releaseHold(peer);
            }
        }
    }

    @Override
    public int poll(final EventHandler handler, final int limit)
    {
        ContractChecks.poll(handler, limit);
        final long stamp = enter("poll");
        try
        {
            return events.poll(handler, limit);
        }
        finally
        {
            lifecycle.unlockRead(stamp);
        }
    }

    /**
     * Spin on the mapped producer index (no system call), then yield, then sleep in the kernel (PINMX_IOC_WAIT
     * when the module has it, poll(2) otherwise) in slices of at most {@link #WAIT_SLICE_NS}.
     */
    @Override
    public boolean await(final long timeoutNs)
    {
        return awaitLoop.await(timeoutNs);
    }

    private boolean eventReady()
    {
        final long stamp = enter("await");
        try
        {
            return events.hasEvents();
        }
        finally
        {
            lifecycle.unlockRead(stamp);
        }
    }

    private void blockAwaiting(final long leftNs)
    {
        final long stamp = enter("await");
        try
        {
            sleepInKernel(Math.min(leftNs, WAIT_SLICE_NS));
        }
        finally
        {
            lifecycle.unlockRead(stamp);
        }
    }

    private void sleepInKernel(final long timeoutNs)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final int rc;
        if ((features & PinmxAbi.FEATURE_NET_WAIT) != 0)
        {
            scratch.wait.set(ValueLayout.JAVA_LONG, PinmxAbi.WAIT_TIMEOUT_NS, timeoutNs);
            rc = device.ioctlHot(scratch, PinmxAbi.IOC_WAIT, scratch.wait);
        }
        else
        {
            scratch.pollFd.set(ValueLayout.JAVA_INT, 0, device.fd());
            scratch.pollFd.set(ValueLayout.JAVA_SHORT, 4, Libc.POLLIN);
            scratch.pollFd.set(ValueLayout.JAVA_SHORT, 6, (short)0);
            final int timeoutMs = (int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs + 999_999));
            rc = Libc.poll(scratch.captureState, scratch.pollFd, timeoutMs) >= 0 ? 0 :
                -Libc.errno(scratch.captureState);
        }
        if (rc != 0 && rc != -Errno.EINTR)
        {
            throw device.failure(-rc, (features & PinmxAbi.FEATURE_NET_WAIT) != 0 ? "PINMX_IOC_WAIT" : "poll",
                "await on endpoint " + address);
        }
    }

    @Override
    public DriverCounters counters()
    {
        return counters;
    }

    /**
     * Unmaps the ring and closes the file; the module then ends the pulls still running, whose end events can no
     * longer be polled: started pulls whose end was not polled are counted as abandoned.
     */
    @Override
    public void close()
    {
        if (events.isDelivering())
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "close of endpoint " + address +
                " from inside its own event handler; close after poll returns");
        }
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
        }
        final long stamp = lifecycle.writeLock();
        try
        {
            final long unfinished = counters.get(Counter.PULLS_STARTED) - counters.get(Counter.PULLS_DONE) -
                counters.get(Counter.PULLS_FAILED);
            counters.add(Counter.PULLS_ABANDONED, Math.max(0, unfinished));
            Libc.munmap(IoctlScratch.get().captureState, ring.address(), PinmxAbi.RING_BYTES);
            device.close();
        }
        finally
        {
            lifecycle.unlockWrite(stamp);
        }
    }

    @Override
    public String toString()
    {
        return "KernelEndpoint{" + address + " on " + interfaceName + " via " + device.path() + "}";
    }

    /**
     * One ioctl inside the read side of the lifecycle lock, so close cannot close the descriptor under it.
     *
     * @return 0 or a negative errno.
     */
    private int ioctl(
        final String operation, final IoctlScratch scratch, final int request, final MemorySegment struct)
    {
        final long stamp = enter(operation);
        try
        {
            return device.ioctl(scratch, request, struct);
        }
        finally
        {
            lifecycle.unlockRead(stamp);
        }
    }

    /** As {@link #ioctl} for the per-message ioctls: {@link PinmxDevice#ioctlHot}, allocation-free when it succeeds. */
    int ioctlHot(
        final String operation, final IoctlScratch scratch, final int request, final MemorySegment struct)
    {
        final long stamp = enter(operation);
        try
        {
            return device.ioctlHot(scratch, request, struct);
        }
        finally
        {
            lifecycle.unlockRead(stamp);
        }
    }

    private long enter(final String operation)
    {
        final long stamp = lifecycle.readLock();
        if (closed)
        {
            lifecycle.unlockRead(stamp);
            throw closedFailure(operation);
        }
        return stamp;
    }

    private void checkOpen(final String operation)
    {
        if (closed)
        {
            throw closedFailure(operation);
        }
    }

    /** Its file is closed, so the errno is the one an ioctl on it would get. */
    private DriverException closedFailure(final String operation)
    {
        return new DriverException(DriverError.ENDPOINT_CLOSED, Errno.EBADF, operation + ": endpoint " + address +
            " (" + device.path() + ") is closed: " + Errno.describe(Errno.EBADF), null);
    }

    private static long nativeAddress(final MemorySegment segment, final MemorySegment staging)
    {
        if (segment.isNative())
        {
            return segment.address();
        }
        MemorySegment.copy(segment, 0, staging, 0, segment.byteSize());
        return staging.address();
    }

    static void putMac(final MemorySegment struct, final long offset, final long mac)
    {
        for (int i = 0; i < BoardAddress.MAC_BYTES; i++)
        {
            struct.set(ValueLayout.JAVA_BYTE, offset + i, (byte)(mac >>> (8 * (BoardAddress.MAC_BYTES - 1 - i))));
        }
    }
}
