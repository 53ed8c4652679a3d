package io.pinmx.apps.mg;

/**
 * The MG programs' arguments: the class, and for the one-sided version how it moves ghost planes; a bad one ends the
 * program with a one-line error and status 2.
 */
final class MgArguments
{
    static final int BAD_ARGUMENTS_STATUS = 2;

    private MgArguments()
    {
    }

    static MgClass mgClass(final String[] args)
    {
        return mgClass(args, 1);
    }

    /** The one-sided version's {@code CLASS [put|get]}. */
    static GhostMotion ghostMotion(final String[] args)
    {
        try
        {
            return args.length < 2 ? GhostMotion.GET : GhostMotion.named(args[1]);
        }
        catch (final IllegalArgumentException ex)
        {
            return refuse(ex);
        }
    }

    /** The class, the first of at most {@code maxArguments} arguments. */
    static MgClass mgClass(final String[] args, final int maxArguments)
    {
        try
        {
            if (args.length < 1 || args.length > maxArguments)
            {
                throw new IllegalArgumentException("usage: MG CLASS (S, W or A)" +
                    (maxArguments > 1 ? " [put|get]" : "") + ", got " + args.length + " arguments");
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
