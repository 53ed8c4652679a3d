package io.pinmx.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Benchmark buffers of anonymous memory, 2 MiB aligned and advised {@code MADV_HUGEPAGE}, so that the kernel backs
 * them with transparent huge pages where it offers them ({@code always} or {@code madvise} mode).
 * <p>
 * Why: message buffers of every transport and the memcpy baseline come from here, so all of them see the same
 * kind of memory. With 4 KiB pages a same-host process_vm_readv pins and copies page by page, slower than
 * memcpy; on huge pages it copies at memcpy speed. Where the kernel grants no huge
 * pages the buffers are ordinary pages and everything still works.
 */
final class HugePageMemory
{
    static final long HUGE_PAGE_BYTES = 2L << 20;
    private static final Path THP_MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final long MAP_FAILED = -1L;

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static
    {
        final Linker linker = Linker.nativeLinker();
        MMAP = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MUNMAP = linker.downcallHandle(linker.defaultLookup().find("munmap").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        MADVISE = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT));
    }

    private HugePageMemory()
    {
    }

    /**
     * @return {@code bytes} of zeroed memory starting on a 2 MiB boundary, unmapped when {@code arena} closes.
     * @throws IllegalArgumentException naming bytes if it is not positive.
     * @throws IllegalStateException    naming the size if mmap fails.
     */
    static MemorySegment allocate(final Arena arena, final long bytes)
    {
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("buffer of " + bytes + " bytes: must be positive");
        }
        final long length = (bytes + HUGE_PAGE_BYTES - 1) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        // Over-map by one huge page, then give back what lies outside the aligned range.
        final long mapped = mmap(length + HUGE_PAGE_BYTES);
        if (MAP_FAILED == mapped)
        {
            throw new IllegalStateException("mmap of " + (length + HUGE_PAGE_BYTES) + " bytes for a " + bytes +
                "-byte benchmark buffer failed");
        }
        final long aligned = (mapped + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES;
        if (aligned > mapped)
        {
            munmap(mapped, aligned - mapped);
        }
        final long tail = mapped + length + HUGE_PAGE_BYTES - (aligned + length);
        if (tail > 0)
        {
            munmap(aligned + length, tail);
        }
        adviseHugePages(aligned, length);
        return MemorySegment.ofAddress(aligned).reinterpret(bytes, arena, ignored -> munmap(aligned, length));
    }

    /**
     * @return the kernel's transparent huge page mode ("always", "madvise", "never"), or "unknown".
     */
    static String transparentHugePageMode()
    {
        try
        {
            final String modes = Files.readString(THP_MODE);
            final int open = modes.indexOf('[');
            final int close = modes.indexOf(']');
            return open >= 0 && close > open ? modes.substring(open + 1, close) : "unknown";
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static long mmap(final long length)
    {
        try
        {
            return (long)MMAP.invokeExact(0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("mmap downcall failed", t);
        }
    }

    private static void munmap(final long address, final long length)
    {
        try
        {
            if (0 != (int)MUNMAP.invokeExact(address, length))
            {
                throw new IllegalStateException("munmap of " + length + " bytes at 0x" + Long.toHexString(address) +
                    " failed");
            }
        }
        catch (final RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("munmap downcall failed", t);
        }
    }

    /** Advice only: a refusal (no THP in this kernel) leaves the memory on ordinary pages. */
    private static void adviseHugePages(final long address, final long length)
    {
        try
        {
            final int refused = (int)MADVISE.invokeExact(address, length, MADV_HUGEPAGE);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("madvise downcall failed", t);
        }
    }
}
