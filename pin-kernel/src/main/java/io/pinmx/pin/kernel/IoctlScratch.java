package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One thread's native memory for ioctl arguments: the errno capture buffer, room for the largest argument struct,
 * a segment vector for PINMX_IOC_DECLARE and a struct pollfd. Sends, declarations and pulls may come from any
 * thread, so each thread gets its own (allocated once per thread, freed with it) and the hot path allocates nothing.
 */
final class IoctlScratch
{
    /** Room for any argument struct taken through {@link #struct}; PINMX_IOC_COUNTERS's is the largest. */
    private static final long STRUCT_BYTES = Math.max(1024, PinmxAbi.COUNTERS.byteSize());
    private static final ThreadLocal<IoctlScratch> PER_THREAD = ThreadLocal.withInitial(IoctlScratch::new);

    final MemorySegment captureState;
    final MemorySegment struct;
    final MemorySegment segments;
    final MemorySegment pollFd;
    /** Hot-path argument structs, sliced once; their reserved and padding fields are never written, so stay 0. */
    final MemorySegment send;
    final MemorySegment pull;
    final MemorySegment wait;
    final MemorySegment put;
    final MemorySegment putv;
    final MemorySegment atomic;
    /** struct pinmx_put_piece[PUT_MAX_PIECES] for PINMX_IOC_PUTV. */
    final MemorySegment putPieces;
    /** Native copies of heap headers and payloads for PINMX_IOC_SEND, which takes user pointers. */
    final MemorySegment stagedHeader;
    final MemorySegment stagedPayload;

    private IoctlScratch()
    {
        final Arena arena = Arena.ofAuto();
        captureState = Libc.allocateCaptureState(arena);
        struct = arena.allocate(STRUCT_BYTES, 64);
        segments = arena.allocate(PinmxAbi.SEGMENT.byteSize() * PinmxAbi.MAX_SEGMENTS, 64);
        pollFd = arena.allocate(Libc.POLLFD_BYTES, 8);
        send = arena.allocate(PinmxAbi.SEND);
        pull = arena.allocate(PinmxAbi.PULL);
        wait = arena.allocate(PinmxAbi.WAIT);
        put = arena.allocate(PinmxAbi.PUT);
        putv = arena.allocate(PinmxAbi.PUTV);
        atomic = arena.allocate(PinmxAbi.ATOMIC);
        putPieces = arena.allocate(PinmxAbi.PUT_PIECE.byteSize() * PinmxAbi.PUT_MAX_PIECES, 8);
        stagedHeader = arena.allocate(PinmxAbi.MXOE_MAX_BYTES, 8);
        stagedPayload = arena.allocate(PinmxAbi.MXOE_MAX_BYTES, 8);
    }

    /** @return this thread's scratch. */
    static IoctlScratch get()
    {
        return PER_THREAD.get();
    }

    /**
     * @param bytes size of the argument struct.
     * @return the zeroed first {@code bytes} of the struct area (reserved fields must be zero); allocates a
     * slice, so for operations off the message path.
     */
    MemorySegment struct(final long bytes)
    {
        final MemorySegment argument = struct.asSlice(0, bytes);
        argument.fill((byte)0);
        return argument;
    }
}
