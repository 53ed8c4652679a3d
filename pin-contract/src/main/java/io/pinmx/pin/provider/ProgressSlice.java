package io.pinmx.pin.provider;

import java.util.Map;

/**
 * The time slice of an endpoint's progress thread. The thread shares its rank's CPU with the application computing
 * there; with the kernel's default slice a frame that wakes it (a partner's pull) waits for the end of the
 * application's slice, and the partner with it. With a shorter slice of its own (Linux 6.12 on, {@link
 * LibcScheduling#sliceForCallingThread}) the woken thread takes the CPU at once and gives it back as soon.
 */
public final class ProgressSlice
{
    /** Environment variable: the slice in microseconds; 0: the kernel's default. */
    public static final String VARIABLE = "PINMX_PROGRESS_SLICE_US";
    /**
     * The slice when {@value #VARIABLE} is unset: the kernel's. A 100 us slice answered pulls sooner across a veth
     * but did not let SRUMMA hide more, and slowed its blocking gets (apps/results).
     */
    public static final long DEFAULT_NS = 0;

    private static final System.Logger LOG = System.getLogger(ProgressSlice.class.getName());

    private ProgressSlice()
    {
    }

    /**
     * @param env the environment to read.
     * @return {@value #VARIABLE} in ns if set, else {@link #DEFAULT_NS}.
     * @throws IllegalArgumentException naming the variable if it is not 0 nor within Linux's slice range.
     */
    public static long fromEnvironment(final Map<String, String> env)
    {
        final String value = env.get(VARIABLE);
        if (null == value)
        {
            return DEFAULT_NS;
        }
        final long minUs = LibcScheduling.MIN_SLICE_NS / 1_000;
        final long maxUs = LibcScheduling.MAX_SLICE_NS / 1_000;
        try
        {
            final long us = Long.parseLong(value);
            if (0 == us || (us >= minUs && us <= maxUs))
            {
                return us * 1_000;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // named below
        }
        throw new IllegalArgumentException(VARIABLE + "=" + value +
            ": expected microseconds, 0 (the kernel's default) or " + minUs + ".." + maxUs);
    }

    /** @return whether {@code sliceNs} is 0 (the kernel's default) or a slice Linux grants. */
    public static boolean isValid(final long sliceNs)
    {
        return 0 == sliceNs || (sliceNs >= LibcScheduling.MIN_SLICE_NS && sliceNs <= LibcScheduling.MAX_SLICE_NS);
    }

    /**
     * On the progress thread, first thing: asks for {@code sliceNs} (nothing for 0). Where the kernel refuses, the
     * thread keeps its slice (logged at DEBUG, naming {@code thread}).
     */
    public static void applyToCallingThread(final long sliceNs, final String thread)
    {
        if (0 != sliceNs)
        {
            final int errno = LibcScheduling.sliceForCallingThread(sliceNs);
            if (0 != errno)
            {
                LOG.log(System.Logger.Level.DEBUG, () -> thread + " keeps the kernel's time slice: sched_setattr(" +
                    sliceNs + " ns) failed: " + Errno.describe(errno));
            }
        }
    }
}
