package io.pinmx.mpj;

import java.util.Arrays;

/** An MPJ Express program's arguments: MPJ's RANK CONFIG DEVICE, then the program's own. */
public final class MpjArguments
{
    /** RANK, CONFIG and DEVICE. */
    private static final int MPJ_ARGUMENTS = 3;

    private MpjArguments()
    {
    }

    /**
     * @return the program's own arguments, those after MPJ's three.
     */
    public static String[] own(final String[] args)
    {
        return Arrays.copyOfRange(args, Math.min(MPJ_ARGUMENTS, args.length), args.length);
    }
}
