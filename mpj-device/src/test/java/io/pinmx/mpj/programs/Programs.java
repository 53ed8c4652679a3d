package io.pinmx.mpj.programs;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Several test programs one after another in one job: {@code Programs RANK CONFIG DEVICE MAIN[,MAIN...]}. Each main
 * gets the rank's MPJ arguments, inits and finalizes MPJ itself (each init after the first is a re-init, which
 * {@link Reinit} checks on its own) and prints its own "OK" line; the first failing check ends the rank with that
 * check's error.
 */
public final class Programs
{
    private static final int MPJ_ARGUMENTS = 3;

    private Programs()
    {
    }

    public static void main(final String[] args) throws Throwable
    {
        if (args.length != MPJ_ARGUMENTS + 1)
        {
            throw new IllegalArgumentException("usage: Programs RANK CONFIG DEVICE MAIN[,MAIN...], got " +
                Arrays.toString(args));
        }
        final String[] mpj = Arrays.copyOf(args, MPJ_ARGUMENTS);
        for (final String name : args[MPJ_ARGUMENTS].split(","))
        {
            final Method main = Class.forName(name).getMethod("main", String[].class);
            try
            {
                main.invoke(null, (Object)mpj.clone());
            }
            catch (final InvocationTargetException ex)
            {
                throw ex.getCause();
            }
        }
    }
}
