package io.pinmx.apps.mg;

/** The MG programs' one argument, the class; a bad one ends the program with a one-line error and status 2. */
final class MgArguments
{
    static final int BAD_ARGUMENTS_STATUS = 2;

    private MgArguments()
    {
    }

    static MgClass mgClass(final String[] args)
    {
        try
        {
            if (args.length != 1)
            {
                throw new IllegalArgumentException("usage: MG CLASS (S, W or A), got " + args.length + " arguments");
            }
            return MgClass.named(args[0]);
        }
        catch (final IllegalArgumentException ex)
        {
            return refuse(ex);
        }
    }

    /** Prints {@code ex}'s message as one line on stderr and exits with {@link #BAD_ARGUMENTS_STATUS}. */
    static <T> T refuse(final IllegalArgumentException ex)
    {
        System.err.println("MG: " + ex.getMessage());
        System.exit(BAD_ARGUMENTS_STATUS);
        return null;
    }
}
