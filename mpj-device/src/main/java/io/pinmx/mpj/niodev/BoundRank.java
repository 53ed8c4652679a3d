package io.pinmx.mpj.niodev;

import io.pinmx.job.RankBinding;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * One niodev rank as {@link NiodevJob} starts it: binds the main thread (the one that calls MPI.Init and every MPJ
 * call after it) to the rank's CPU when PINMX_BIND=core asks ({@link RankBinding#bindWhenAsked}, as pinmx's device
 * binds its ranks), then runs the MPJ program's main on it, so both devices run under the same binding.
 * <p>
 * {@code BoundRank SIZE MAIN_CLASS RANK CONFIG DEVICE ARGS...}: MAIN_CLASS gets {@code RANK CONFIG DEVICE ARGS...}.
 */
public final class BoundRank
{
    private BoundRank()
    {
    }

    public static void main(final String[] args) throws Throwable
    {
        if (args.length < 3)
        {
            throw new IllegalArgumentException("usage: BoundRank SIZE MAIN_CLASS RANK CONFIG DEVICE ARGS..., got " +
                String.join(" ", args));
        }
        final int size = Integer.parseInt(args[0]);
        final int rank = Integer.parseInt(args[2]);
        RankBinding.bindWhenAsked(rank, size, System.getenv());
        try
        {
            final Method main = Class.forName(args[1]).getMethod("main", String[].class);
            // The java launcher runs the public main of a class that is not public itself; so does a rank.
            main.setAccessible(true);
            main.invoke(null, (Object)Arrays.copyOfRange(args, 2, args.length));
        }
        catch (final InvocationTargetException ex)
        {
            throw ex.getCause();
        }
    }
}
