package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Tells whether native memory handed to a send can be read before the driver's own code reads it (a frame check):
 * a read of an unmapped or unreadable page from Java kills the JVM, while a system call that reads it fails.
 * <p>
 * Memory an arena owns needs no question ({@link #arenaOwned}): FFM keeps it mapped while the arena is open. A segment
 * of the global scope is an address from native code, reinterpreted, and may point anywhere: its pages are asked.
 * <p>
 * Ranges added back to back are asked about as one. Each is asked with madvise(MADV_POPULATE_READ), which fails
 * for a range with a page that is not mapped, not readable or past the end of its file, and walks a huge page as
 * one; it reads no data. Where the kernel lacks that advice (before 5.14), or a range fails it, one
 * process_vm_readv of our own pid reading a byte of every page of the range gives the answer. Memory unmapped by
 * another thread after the answer is a use after free of the caller's. Not thread safe: one per sending owner.
 */
final class ReadablePages
{
    static final long PAGE_BYTES = 4096;
    private static final int MADV_POPULATE_READ = 22;
    /** process_vm_readv takes at most IOV_MAX (1024) iovecs a side. */
    private static final int PROBES_PER_CALL = 1024;
    private static final MemorySegment.Scope GLOBAL_SCOPE = Arena.global().scope();
    private static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private final MemorySegment capture;
    private final MemorySegment local;
    private final MemorySegment remote;
    private final boolean populateRead;
    private long rangeStart;
    private long rangeEnd;
    private boolean readable;

    ReadablePages(final Arena arena)
    {
        this(arena, true);
    }

    /** @param askPopulateRead false to ask page by page even where the kernel knows MADV_POPULATE_READ. */
    ReadablePages(final Arena arena, final boolean askPopulateRead)
    {
        capture = Libc.allocateCaptureState(arena);
        final MemorySegment scratch = arena.allocate(PROBES_PER_CALL, PAGE_BYTES);
        local = arena.allocate(Libc.IOVEC_BYTES, 8);
        Libc.putIovec(local, 0, scratch.address(), PROBES_PER_CALL);
        remote = arena.allocate(Libc.IOVEC_BYTES * PROBES_PER_CALL, 8);
        populateRead = askPopulateRead && madvise(scratch.address(), PAGE_BYTES) == 0;
    }

    /**
     * @return whether {@code segment} is native memory of an open arena that this thread may access, so that FFM
     *         itself vouches that it can be read (a copy through FFM checks the arena is still open).
     */
    static boolean arenaOwned(final MemorySegment segment)
    {
        return segment.isNative() && !GLOBAL_SCOPE.equals(segment.scope()) && segment.scope().isAlive() &&
            segment.isAccessibleBy(Thread.currentThread());
    }

    /** Whether ranges are asked with MADV_POPULATE_READ (else page by page with process_vm_readv). */
    boolean populatesRead()
    {
        return populateRead;
    }

    /** Starts a new question: the ranges added from here on. */
    ReadablePages clear()
    {
        rangeStart = 0;
        rangeEnd = 0;
        readable = true;
        return this;
    }

    /** Adds the {@code bytes} at {@code address}, asking about the range so far unless they continue it. */
    ReadablePages add(final long address, final long bytes)
    {
        if (bytes <= 0 || !readable)
        {
            return this;
        }
        if (address != rangeEnd)
        {
            readable = rangeReadable();
            rangeStart = address;
        }
        rangeEnd = address + bytes;
        return this;
    }

    /** @return whether every page of the ranges added since {@link #clear} can be read. */
    boolean readable()
    {
        if (readable)
        {
            readable = rangeReadable();
            rangeStart = rangeEnd;
        }
        return readable;
    }

    private boolean rangeReadable()
    {
        if (rangeEnd == rangeStart)
        {
            return true;
        }
        final long first = rangeStart & -PAGE_BYTES;
        return populateRead && madvise(first, rangeEnd - first) == 0 || probePages(rangeStart, rangeEnd);
    }

    /** One probe a page of {@code [start, end)}, in as few process_vm_readv calls as IOV_MAX allows. */
    private boolean probePages(final long start, final long end)
    {
        int probes = 0;
        for (long page = start & -PAGE_BYTES; page < end; page += PAGE_BYTES)
        {
            if (probes == PROBES_PER_CALL)
            {
                if (!probe(probes))
                {
                    return false;
                }
                probes = 0;
            }
            Libc.putIovec(remote, probes++, Math.max(page, start), 1);
        }
        return probe(probes);
    }

    private boolean probe(final int probes)
    {
        Libc.putIovec(local, 0, local.get(ValueLayout.JAVA_LONG, 0), probes);
        return Libc.readv(capture, Libc.pid(), local, 1, remote, probes) == probes;
    }

    private static int madvise(final long pageAddress, final long bytes)
    {
        try
        {
            return (int)MADVISE.invokeExact(pageAddress, bytes, MADV_POPULATE_READ);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("madvise downcall failed", t);
        }
    }
}
