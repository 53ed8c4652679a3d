package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RemoteTarget;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An endpoint's one-sided writes on pinmx.ko: PINMX_IOC_PUT, PUTV and ATOMIC into a peer's region declared
 * PINMX_DECLARE_REMOTE, which the target's receive softirq applies without its process. Arguments are checked
 * here first, so a refusal names the argument rather than only an errno; each operation holds its peer entry
 * until the end event is delivered ({@link KernelEventRing}). The ioctl copies the source bytes (and an
 * accumulate's values) before it returns, so they may be reused at once.
 */
final class KernelOneSided
{
    private static final long PIECE_BYTES = PinmxAbi.PUT_PIECE.byteSize();

    private final KernelEndpoint endpoint;
    private final PinmxDevice device;
    private final KernelEndpoint.PeerIoctl<PutSpec> putIoctl = this::ioctlPut;
    private final KernelEndpoint.PeerIoctl<PutSpec> putvIoctl = this::ioctlPutv;
    private final KernelEndpoint.PeerIoctl<AtomicSpec> atomicIoctl = this::ioctlAtomic;

    KernelOneSided(final KernelEndpoint endpoint, final PinmxDevice device)
    {
        this.endpoint = endpoint;
        this.device = device;
    }

    void put(final PutSpec spec)
    {
        endpoint.requireModuleFeature(PinmxAbi.FEATURE_NET_PUT, DriverError.UNSUPPORTED, "startPut");
        if (spec.isVector())
        {
            checkPieces(spec);
        }
        else
        {
            checkRange(spec, "length", spec.length(), spec.remoteOffset(), spec.localOffset());
        }
        final int rc = endpoint.issueHoldingPeer(
            "startPut", spec.target().peerIndex(), spec, spec.isVector() ? putvIoctl : putIoctl);
        if (rc != 0)
        {
            throw putFailure(-rc, spec);
        }
    }

    void atomic(final AtomicSpec spec)
    {
        endpoint.requireModuleFeature(PinmxAbi.FEATURE_NET_ATOMIC, DriverError.UNSUPPORTED, "startAtomic");
        checkAtomic(spec);
        final int rc = endpoint.issueHoldingPeer("startAtomic", spec.target().peerIndex(), spec,
            atomicIoctl);
        if (rc != 0)
        {
            throw atomicFailure(-rc, spec);
        }
    }

    /** PINMX_IOC_HOLD_WRITES on a region of this endpoint declared PINMX_DECLARE_REMOTE. */
    void holdWrites(final int regionId, final boolean hold)
    {
        endpoint.requireModuleFeature(PinmxAbi.FEATURE_NET_HOLD_WRITES, DriverError.UNSUPPORTED, "holdRemoteWrites");
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment request = scratch.struct(PinmxAbi.HOLD_WRITES.byteSize());
        request.set(ValueLayout.JAVA_INT, PinmxAbi.HOLD_WRITES_REGION_ID, regionId);
        request.set(ValueLayout.JAVA_INT, PinmxAbi.HOLD_WRITES_HOLD, hold ? 1 : 0);
        final int rc = endpoint.ioctlHot("holdRemoteWrites", scratch, PinmxAbi.IOC_HOLD_WRITES, request);
        if (rc == -Errno.ENOENT)
        {
            throw new DriverException(DriverError.UNKNOWN_REGION, Errno.ENOENT, "holdRemoteWrites: region " +
                regionId + " is not declared on endpoint " + endpoint.address(), null);
        }
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_HOLD_WRITES", "region " + regionId + (hold ? ", hold" : ", let in"));
        }
    }

    private static void checkRange(
        final PutSpec spec, final String what, final long length, final long remoteOffset, final long localOffset)
    {
        if (length <= 0 || length > PinmxAbi.PUT_MAX_BYTES)
        {
            throw badArgument(spec, what + " " + length + " is not 1.." + PinmxAbi.PUT_MAX_BYTES + " bytes");
        }
        if (remoteOffset < 0 || remoteOffset + length < 0)
        {
            throw badArgument(spec, "remote offset " + remoteOffset + " is negative or overflows with " + what +
                " " + length);
        }
        if (localOffset < 0 || localOffset + length < 0)
        {
            throw badArgument(spec, "local offset " + localOffset + " is negative or overflows with " + what + " " +
                length);
        }
    }

    private static void checkPieces(final PutSpec spec)
    {
        final int pieces = spec.pieceCount();
        final long[] remote = spec.remoteOffsets();
        final long[] local = spec.localOffsets();
        final long[] lengths = spec.lengths();
        if (pieces < 1 || pieces > PinmxAbi.PUT_MAX_PIECES || null == remote || null == local ||
            pieces > remote.length || pieces > local.length || pieces > lengths.length)
        {
            throw badArgument(spec, "piece count " + pieces + " is not 1.." + PinmxAbi.PUT_MAX_PIECES +
                " or the offset and length arrays hold fewer");
        }
        long total = 0;
        for (int i = 0; i < pieces; i++)
        {
            checkRange(spec, "piece " + i + " length", lengths[i], remote[i], local[i]);
            total += lengths[i];
        }
        if (total > PinmxAbi.PUT_MAX_BYTES)
        {
            throw badArgument(spec, "pieces total " + total + " bytes, above " + PinmxAbi.PUT_MAX_BYTES);
        }
    }

    /** @return the number of words. */
    private static void checkAtomic(final AtomicSpec spec)
    {
        final int width = spec.widthBytes();
        if (null == spec.op())
        {
            throw badArgument(spec, "no operation");
        }
        if (width != AtomicSpec.INT32_BYTES && width != AtomicSpec.INT64_BYTES)
        {
            throw badArgument(spec, "width " + width + " bytes is not 4 (int32) or 8 (int64)");
        }
        if (spec.remoteOffset() < 0 || spec.remoteOffset() % width != 0)
        {
            throw badArgument(spec, "remote offset " + spec.remoteOffset() + " is negative or not a multiple of " +
                "the width " + width + " (atomics need naturally aligned words)");
        }
        if (AtomicOp.ACCUMULATE != spec.op())
        {
            return;
        }
        final MemorySegment values = spec.values();
        final long words = values.byteSize() / width;
        if (!values.isNative() || values.byteSize() % width != 0 || words < 1 || words > PinmxAbi.ATOMIC_MAX_WORDS)
        {
            throw badArgument(spec, "values " + values + " must be native memory of 1.." +
                PinmxAbi.ATOMIC_MAX_WORDS + " whole " + width + "-byte words");
        }
    }

    /** The words an atomic touches: an accumulate's value count, else one. */
    private static int wordCount(final AtomicSpec spec)
    {
        return AtomicOp.ACCUMULATE == spec.op() ? (int)(spec.values().byteSize() / spec.widthBytes()) : 1;
    }

    private static DriverException badArgument(final Object spec, final String cause)
    {
        return new DriverException(DriverError.BAD_ARGUMENT, Errno.EINVAL, spec + ": " + cause, null);
    }

    private int ioctlPut(final PutSpec spec, final MacPeer peer)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment put = scratch.put;
        final RemoteTarget target = spec.target();
        KernelEndpoint.putMac(put, PinmxAbi.PUT_PEER_MAC, peer.mac());
        put.set(ValueLayout.JAVA_BYTE, PinmxAbi.PUT_PEER_ENDPOINT, (byte)target.endpointIndex());
        put.set(ValueLayout.JAVA_INT, PinmxAbi.PUT_PEER_SESSION, target.sessionId());
        put.set(ValueLayout.JAVA_INT, PinmxAbi.PUT_REMOTE_REGION, target.regionId());
        put.set(ValueLayout.JAVA_INT, PinmxAbi.PUT_LOCAL_REGION, spec.localRegionId());
        put.set(ValueLayout.JAVA_INT, PinmxAbi.PUT_HANDLE, spec.handle());
        put.set(ValueLayout.JAVA_LONG, PinmxAbi.PUT_REMOTE_OFFSET, spec.remoteOffset());
        put.set(ValueLayout.JAVA_LONG, PinmxAbi.PUT_LOCAL_OFFSET, spec.localOffset());
        put.set(ValueLayout.JAVA_LONG, PinmxAbi.PUT_LENGTH, spec.length());
        put.set(ValueLayout.JAVA_LONG, PinmxAbi.PUT_REMOTE_KEY, target.key());
        return endpoint.ioctlHot("startPut", scratch, PinmxAbi.IOC_PUT, put);
    }

    private int ioctlPutv(final PutSpec spec, final MacPeer peer)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment putv = scratch.putv;
        final MemorySegment pieces = scratch.putPieces;
        final RemoteTarget target = spec.target();
        for (int i = 0; i < spec.pieceCount(); i++)
        {
            final long at = i * PIECE_BYTES;
            pieces.set(ValueLayout.JAVA_LONG, at + PinmxAbi.PUT_PIECE_REMOTE_OFFSET, spec.remoteOffsets()[i]);
            pieces.set(ValueLayout.JAVA_LONG, at + PinmxAbi.PUT_PIECE_LOCAL_OFFSET, spec.localOffsets()[i]);
            pieces.set(ValueLayout.JAVA_LONG, at + PinmxAbi.PUT_PIECE_LEN, spec.lengths()[i]);
        }
        KernelEndpoint.putMac(putv, PinmxAbi.PUTV_PEER_MAC, peer.mac());
        putv.set(ValueLayout.JAVA_BYTE, PinmxAbi.PUTV_PEER_ENDPOINT, (byte)target.endpointIndex());
        putv.set(ValueLayout.JAVA_INT, PinmxAbi.PUTV_PEER_SESSION, target.sessionId());
        putv.set(ValueLayout.JAVA_INT, PinmxAbi.PUTV_REMOTE_REGION, target.regionId());
        putv.set(ValueLayout.JAVA_INT, PinmxAbi.PUTV_LOCAL_REGION, spec.localRegionId());
        putv.set(ValueLayout.JAVA_INT, PinmxAbi.PUTV_HANDLE, spec.handle());
        putv.set(ValueLayout.JAVA_INT, PinmxAbi.PUTV_NR_PIECES, spec.pieceCount());
        putv.set(ValueLayout.JAVA_LONG, PinmxAbi.PUTV_PIECES, pieces.address());
        putv.set(ValueLayout.JAVA_LONG, PinmxAbi.PUTV_REMOTE_KEY, target.key());
        return endpoint.ioctlHot("startPut", scratch, PinmxAbi.IOC_PUTV, putv);
    }

    private int ioctlAtomic(final AtomicSpec spec, final MacPeer peer)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment atomic = scratch.atomic;
        final RemoteTarget target = spec.target();
        KernelEndpoint.putMac(atomic, PinmxAbi.ATOMIC_PEER_MAC, peer.mac());
        atomic.set(ValueLayout.JAVA_BYTE, PinmxAbi.ATOMIC_PEER_ENDPOINT, (byte)target.endpointIndex());
        atomic.set(ValueLayout.JAVA_BYTE, PinmxAbi.ATOMIC_OP, (byte)opCode(spec.op()));
        atomic.set(ValueLayout.JAVA_INT, PinmxAbi.ATOMIC_PEER_SESSION, target.sessionId());
        atomic.set(ValueLayout.JAVA_INT, PinmxAbi.ATOMIC_REMOTE_REGION, target.regionId());
        atomic.set(ValueLayout.JAVA_INT, PinmxAbi.ATOMIC_WIDTH, spec.widthBytes());
        atomic.set(ValueLayout.JAVA_INT, PinmxAbi.ATOMIC_HANDLE, spec.handle());
        atomic.set(ValueLayout.JAVA_INT, PinmxAbi.ATOMIC_COUNT, wordCount(spec));
        atomic.set(ValueLayout.JAVA_LONG, PinmxAbi.ATOMIC_REMOTE_OFFSET, spec.remoteOffset());
        atomic.set(ValueLayout.JAVA_LONG, PinmxAbi.ATOMIC_REMOTE_KEY, target.key());
        final long widthMask = spec.widthBytes() == AtomicSpec.INT32_BYTES ? 0xFFFF_FFFFL : -1L;
        atomic.set(ValueLayout.JAVA_LONG, PinmxAbi.ATOMIC_OPERAND, spec.operand() & widthMask);
        atomic.set(ValueLayout.JAVA_LONG, PinmxAbi.ATOMIC_COMPARE, spec.compare() & widthMask);
        atomic.set(ValueLayout.JAVA_LONG, PinmxAbi.ATOMIC_VALUES,
            AtomicOp.ACCUMULATE == spec.op() ? spec.values().address() : 0);
        return endpoint.ioctlHot("startAtomic", scratch, PinmxAbi.IOC_ATOMIC, atomic);
    }

    static int opCode(final AtomicOp op)
    {
        return switch (op)
        {
            case FETCH_ADD -> PinmxAbi.ATOMIC_FETCH_ADD;
            case SWAP -> PinmxAbi.ATOMIC_SWAP;
            case COMPARE_AND_SWAP -> PinmxAbi.ATOMIC_CAS;
            case ACCUMULATE -> PinmxAbi.ATOMIC_ACCUMULATE;
        };
    }

    private DriverException putFailure(final int errno, final PutSpec spec)
    {
        final String cause = switch (errno)
        {
            case Errno.ENOENT -> "local region " + spec.localRegionId() + " is not declared";
            case Errno.EACCES -> "local region " + spec.localRegionId() + " was declared by another process";
            case Errno.ERANGE -> "a local range reaches past the end of local region " + spec.localRegionId();
            case Errno.EFAULT -> "the source bytes of local region " + spec.localRegionId() + " are not readable";
            case Errno.EBUSY -> PinmxAbi.MAX_PUTS + " puts are running already";
            case Errno.EMSGSIZE -> "more than " + PinmxAbi.PUT_MAX_BYTES + " bytes";
            default -> "refused";
        };
        return ioctlFailure(errno, "PINMX_IOC_PUT" + (spec.isVector() ? "V" : ""), spec, cause);
    }

    private DriverException atomicFailure(final int errno, final AtomicSpec spec)
    {
        final String cause = switch (errno)
        {
            case Errno.EBUSY -> "the atomic started " + PinmxAbi.ATOMIC_WINDOW + " before this one is still in flight";
            case Errno.EFAULT -> "the accumulate's values are not readable";
            default -> "refused";
        };
        return ioctlFailure(errno, "PINMX_IOC_ATOMIC", spec, cause);
    }

    private DriverException ioctlFailure(final int errno, final String name, final Object spec, final String cause)
    {
        final DriverError kind = switch (errno)
        {
            case Errno.ENETDOWN, Errno.ENOTCONN -> DriverError.PEER_UNREACHABLE;
            default -> PinmxDevice.kindOf(errno);
        };
        return new DriverException(kind, errno, name + " on " + device.path() + " (" + spec + "): " + cause + ": " +
            Errno.describe(errno), null);
    }
}
