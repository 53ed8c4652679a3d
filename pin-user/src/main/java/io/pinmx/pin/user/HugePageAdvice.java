package io.pinmx.pin.user;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Map;

/**
 * Asks the kernel to back declared memory with transparent huge pages: every 2 MiB-aligned range that lies wholly
 * inside a declared segment is collapsed into one huge page (madvise MADV_COLLAPSE, Linux 6.1 on, whatever the
 * sysfs THP mode short of {@code never}).
 * <p>
 * Why: a same-host pull reads the source's region with process_vm_readv (and a shared pull's helper writes the
 * puller's with process_vm_writev), which pins and walks the other process's memory page by page; over huge pages
 * the walk takes one step per 2 MiB and the copy runs near memcpy speed. Buffers that a layer above allocates and
 * touches itself (MPJ's direct ByteBuffers) are on 4 KiB pages by then, so advice before the first touch would come
 * too late: collapsing moves their contents into huge pages in place.
 * <p>
 * Cost: the first collapse of a range allocates and fills a huge page (milliseconds per 2 MiB), once per range as
 * pinning is once per region in a registration cache; asking again about a range already collapsed is a system call
 * that finds it so. Advice only: a range the kernel cannot collapse (memory short, part unmapped or never touched,
 * a kernel without the advice) stays on its pages and is read as before. Stateless, so any declaring thread may
 * call it.
 */
final class HugePageAdvice
{
    /** Environment variable: {@code collapse} (default) or {@code off}. */
    static final String VARIABLE = "PINMX_HUGE_PAGES";
    static final long HUGE_PAGE_BYTES = 2L << 20;
    private static final int MADV_COLLAPSE = 25;
    private static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT));

    /** What the driver does with declared memory. */
    enum Mode
    {
        /** Collapse each declared segment's whole aligned 2 MiB ranges into huge pages. */
        COLLAPSE,
        /** Leave declared memory on whatever pages it has. */
        OFF
    }

    private final Mode mode;

    HugePageAdvice(final Mode mode)
    {
        this.mode = mode;
    }

    /**
     * @param env the environment to read.
     * @return the advice {@value #VARIABLE} asks for; unset or empty: {@link Mode#COLLAPSE}.
     * @throws IllegalArgumentException naming the variable and its value if it is neither {@code collapse} nor
     *                                  {@code off}.
     */
    static HugePageAdvice fromEnvironment(final Map<String, String> env)
    {
        final String value = env.get(VARIABLE);
        if (null == value || value.isEmpty())
        {
            return new HugePageAdvice(Mode.COLLAPSE);
        }
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "collapse" -> new HugePageAdvice(Mode.COLLAPSE);
            case "off" -> new HugePageAdvice(Mode.OFF);
            default -> throw new IllegalArgumentException(
                VARIABLE + "=" + value + ": expected collapse or off");
        };
    }

    Mode mode()
    {
        return mode;
    }

    /**
     * Collapse the whole aligned 2 MiB ranges of the first {@code count} segments.
     *
     * @return how many such ranges are on huge pages now (collapsed, or found so); 0 when off.
     */
    int advise(final MemorySegment[] segments, final int count)
    {
        if (Mode.OFF == mode)
        {
            return 0;
        }
        int huge = 0;
        for (int i = 0; i < count; i++)
        {
            final long start = segments[i].address();
            final long end = start + segments[i].byteSize();
            for (long at = (start + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES; at + HUGE_PAGE_BYTES <= end;
                at += HUGE_PAGE_BYTES)
            {
                if (madvise(at) == 0)
                {
                    huge++;
                }
            }
        }
        return huge;
    }

    private static int madvise(final long address)
    {
        try
        {
            return (int)MADVISE.invokeExact(address, HUGE_PAGE_BYTES, MADV_COLLAPSE);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("madvise downcall failed", t);
        }
    }
}
