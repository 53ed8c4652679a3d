package io.pinmx.apps.matmul;

/**
 * The matrix programs' arguments, the order and optionally the chunk width (0: the default), and for SRUMMA how many
 * chunks it fetches ahead; a bad one, or an order the ranks cannot share, ends the program.
 */
final class MatmulArguments
{
    static final int BAD_ARGUMENTS_STATUS = 2;

    private MatmulArguments()
    {
    }

    /** The grid for the order in {@code args} over {@code ranks}, or a one-line error and status 2. */
    static BlockGrid grid(final String program, final String[] args, final int ranks)
    {
        return grid(program, "ORDER [CHUNK]", 2, args, ranks);
    }

    /** As {@link #grid(String, String[], int)}, with up to {@code maxArguments} arguments as {@code usage} shows. */
    static BlockGrid grid(final String program, final String usage, final int maxArguments, final String[] args,
        final int ranks)
    {
        try
        {
            if (args.length < 1 || args.length > maxArguments)
            {
                throw new IllegalArgumentException("usage: " + program + " " + usage + ", got " + args.length +
                    " arguments");
            }
            return BlockGrid.of(integer("matrix order", args[0]), ranks,
                args.length >= 2 ? integer("chunk", args[1]) : 0);
        }
        catch (final IllegalArgumentException ex)
        {
            return refuse(program, ex);
        }
    }

    /** SRUMMA's third argument: how many chunks it fetches ahead of the one it multiplies, at least 1. */
    static int chunksAhead(final String program, final String[] args, final int defaultAhead)
    {
        try
        {
            if (args.length < 3)
            {
                return defaultAhead;
            }
            final int ahead = integer("chunks ahead", args[2]);
            if (ahead < 1)
            {
                throw new IllegalArgumentException("chunks ahead " + ahead + " is below 1");
            }
            return ahead;
        }
        catch (final IllegalArgumentException ex)
        {
            return refuse(program, ex);
        }
    }

    private static <T> T refuse(final String program, final IllegalArgumentException ex)
    {
        System.err.println(program + ": " + ex.getMessage());
        System.exit(BAD_ARGUMENTS_STATUS);
        return null;
    }

    private static int integer(final String name, final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " '" + text + "' is not an integer");
        }
    }
}
