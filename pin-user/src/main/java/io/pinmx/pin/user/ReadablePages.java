package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Tells whether native memory handed to a send can be read before the driver's own code reads it (a frame check):
 * a read of an unmapped or unreadable page from Java kills the JVM, while a system call that reads it returns
 * EFAULT. One process_vm_readv of our own pid reads a byte of every page the ranges touch into a scratch buffer,
 * so the answer costs a system call and no copy of the data. Memory unmapped by another thread after the answer is
 * a use after free of the caller's. Not thread safe: one per sending owner.
 */
final class ReadablePages
{
    static final long PAGE_BYTES = 4096;
    /** process_vm_readv takes at most IOV_MAX (1024) iovecs a side. */
    private static final int PROBES_PER_CALL = 1024;

    private final MemorySegment capture;
    private final MemorySegment local;
    private final MemorySegment remote;
    private int probes;
    private boolean readable;

    ReadablePages(final Arena arena)
    {
        capture = Libc.allocateCaptureState(arena);
        final MemorySegment scratch = arena.allocate(PROBES_PER_CALL, 8);
        local = arena.allocate(Libc.IOVEC_BYTES, 8);
        Libc.putIovec(local, 0, scratch.address(), PROBES_PER_CALL);
        remote = arena.allocate(Libc.IOVEC_BYTES * PROBES_PER_CALL, 8);
    }

    /** Starts a new question: the ranges added from here on. */
    ReadablePages clear()
    {
        probes = 0;
        readable = true;
        return this;
    }

    /** Adds the {@code bytes} at {@code address}: a probe of each page they touch. */
    ReadablePages add(final long address, final long bytes)
    {
        if (bytes <= 0)
        {
            return this;
        }
        final long last = address + bytes - 1;
        for (long page = address & -PAGE_BYTES; readable && page <= last; page += PAGE_BYTES)
        {
            if (probes == PROBES_PER_CALL)
            {
                readable = probe();
                probes = 0;
            }
            Libc.putIovec(remote, probes++, Math.max(page, address), 1);
        }
        return this;
    }

    /** @return whether every page of the ranges added since {@link #clear} can be read. */
    boolean readable()
    {
        if (readable && probes > 0)
        {
            readable = probe();
            probes = 0;
        }
        return readable;
    }

    private boolean probe()
    {
        Libc.putIovec(local, 0, local.get(ValueLayout.JAVA_LONG, 0), probes);
        return Libc.readv(capture, Libc.pid(), local, 1, remote, probes) == probes;
    }
}
