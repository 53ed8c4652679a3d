package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies between iovec vectors with process_vm_readv/writev, the only way this driver touches declared memory:
 * a declared segment may be unmapped, and the kernel reports that as EFAULT instead of crashing the JVM. Used on
 * another process (same-host single-copy pull) and on this process (serving PULL from a declared region and
 * writing PULL_REPLY payloads into one).
 * <p>
 * Holds two iovec arrays ({@link #local}, {@link #remote}) with the declared segment each entry came from; not
 * thread safe: one per agent. On a short transfer it resumes from where the kernel stopped, so the result is
 * either all bytes or the exact byte position of the fault.
 */
final class VmCopier
{
    private final MemorySegment captureState;
    private final MemorySegment local;
    private final MemorySegment remote;
    private final int[] localSegments = new int[RegionTable.MAX_SEGMENTS];
    private final int[] remoteSegments = new int[RegionTable.MAX_SEGMENTS];
    private final MemorySegment localTail;
    private final MemorySegment remoteTail;
    private final MemorySegment probe;
    private int localCount;
    private int remoteCount;
    private int errno;
    private long faultPosition;

    VmCopier(final Arena arena)
    {
        captureState = Libc.allocateCaptureState(arena);
        local = arena.allocate(Libc.IOVEC_BYTES * RegionTable.MAX_SEGMENTS, 8);
        remote = arena.allocate(Libc.IOVEC_BYTES * RegionTable.MAX_SEGMENTS, 8);
        localTail = arena.allocate(Libc.IOVEC_BYTES * RegionTable.MAX_SEGMENTS, 8);
        remoteTail = arena.allocate(Libc.IOVEC_BYTES * RegionTable.MAX_SEGMENTS, 8);
        probe = arena.allocate(Libc.IOVEC_BYTES * 2 + 8, 8);
    }

    /** Fill the local side from a region. @return iovec count or a negative {@link RegionTable} code. */
    int resolveLocal(final RegionTable table, final int id, final int access, final long offset, final long length)
    {
        localCount = table.resolve(id, access, offset, length, local, localSegments);
        return localCount;
    }

    /** Fill the remote side from a region (of a peer, or of this process). */
    int resolveRemote(final RegionTable table, final int id, final int access, final long offset, final long length)
    {
        remoteCount = table.resolve(id, access, offset, length, remote, remoteSegments);
        return remoteCount;
    }

    /** The remote side's iovecs as {@link #resolveRemote} left them. */
    MemorySegment remoteIovecs()
    {
        return remote;
    }

    /** The declared segment the remote side's iovec {@code index} lies in, as {@link #resolveRemote} left it. */
    int remoteSegment(final int index)
    {
        return remoteSegments[index];
    }

    /** The local side is one plain buffer (a frame payload or a staging buffer) of this process. */
    void localBuffer(final long address, final long bytes)
    {
        Libc.putIovec(local, 0, address, bytes);
        localSegments[0] = -1;
        localCount = 1;
    }

    /**
     * The local side is {@code totalBytes} cut into slots of {@code slotBytes} (the last one shorter), one every
     * {@code strideBytes} from {@code address}: the payload slots of frames laid out back to back.
     */
    void localFrames(final long address, final long strideBytes, final long slotBytes, final long totalBytes)
    {
        int count = 0;
        for (long at = 0; at < totalBytes; at += slotBytes)
        {
            Libc.putIovec(local, count, address + count * strideBytes, Math.min(slotBytes, totalBytes - at));
            localSegments[count++] = -1;
        }
        localCount = count;
    }

    /**
     * Copy {@code total} bytes from the remote side of process {@code pid} into the local side ({@code write} false)
     * or from the local side into the remote side ({@code write} true).
     *
     * @return true if all bytes moved; otherwise {@link #errno()} and {@link #faultPosition()} say why and where.
     */
    boolean transfer(final int pid, final boolean write, final long total)
    {
        return transfer(pid, write, 0, total);
    }

    /**
     * Copy bytes {@code from} to {@code to} of both sides as resolved (a part of a pull others copy the rest of).
     *
     * @return as {@link #transfer(int, boolean, long)}; the fault position counts from the start of the sides.
     */
    boolean transfer(final int pid, final boolean write, final long from, final long to)
    {
        long done = from;
        errno = 0;
        while (done < to)
        {
            final int lc = slice(local, localCount, done, to - done, localTail);
            final int rc = slice(remote, remoteCount, done, to - done, remoteTail);
            final long n = write ?
                Libc.writev(captureState, pid, localTail, lc, remoteTail, rc) :
                Libc.readv(captureState, pid, localTail, lc, remoteTail, rc);
            if (n <= 0)
            {
                errno = n == 0 ? Errno.EFAULT : (int)-n;
                faultPosition = done;
                return false;
            }
            done += n;
        }
        return true;
    }

    int errno()
    {
        return errno;
    }

    long faultPosition()
    {
        return faultPosition;
    }

    /**
     * After a failed transfer: does the remote side's byte at the fault position read fine from {@code pid}? If so
     * the local side faulted.
     */
    boolean remoteReadable(final int pid)
    {
        final int index = entryAt(remote, remoteCount, faultPosition);
        if (index < 0)
        {
            return true;
        }
        Libc.putIovec(probe, 0, probe.address() + Libc.IOVEC_BYTES * 2, 1);
        Libc.putIovec(probe, 1, addressAt(remote, remoteCount, faultPosition), 1);
        return Libc.readv(captureState, pid, probe, 1, probe.asSlice(Libc.IOVEC_BYTES), 1) == 1;
    }

    /** Declared segment index of the remote side at the fault position. */
    int remoteFaultSegment()
    {
        final int index = entryAt(remote, remoteCount, faultPosition);
        return index < 0 ? -1 : remoteSegments[index];
    }

    int localFaultSegment()
    {
        final int index = entryAt(local, localCount, faultPosition);
        return index < 0 ? -1 : localSegments[index];
    }

    long remoteFaultAddress()
    {
        return addressAt(remote, remoteCount, faultPosition);
    }

    long localFaultAddress()
    {
        return addressAt(local, localCount, faultPosition);
    }

    /** Copy into {@code to} the iovecs of {@code from} that cover {@code bytes} after the first {@code skipBytes}. */
    private static int slice(
        final MemorySegment from, final int count, final long skipBytes, final long bytes, final MemorySegment to)
    {
        long left = skipBytes;
        long wanted = bytes;
        int n = 0;
        for (int i = 0; i < count && wanted > 0; i++)
        {
            final long base = from.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES);
            final long length = from.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES + 8);
            if (left >= length)
            {
                left -= length;
                continue;
            }
            final long take = Math.min(length - left, wanted);
            Libc.putIovec(to, n++, base + left, take);
            wanted -= take;
            left = 0;
        }
        return n;
    }

    private static int entryAt(final MemorySegment iov, final int count, final long position)
    {
        long start = 0;
        for (int i = 0; i < count; i++)
        {
            final long length = iov.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES + 8);
            if (position < start + length)
            {
                return i;
            }
            start += length;
        }
        return -1;
    }

    private static long addressAt(final MemorySegment iov, final int count, final long position)
    {
        long start = 0;
        for (int i = 0; i < count; i++)
        {
            final long base = iov.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES);
            final long length = iov.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES + 8);
            if (position < start + length)
            {
                return base + (position - start);
            }
            start += length;
        }
        return 0;
    }
}
