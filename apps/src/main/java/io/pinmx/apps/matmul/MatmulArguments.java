package io.pinmx.apps.matmul;

/**
 * The matrix programs' arguments, the order and optionally the chunk width; a bad one, or an order the ranks cannot
 * share, ends the program.
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
        try
        {
            if (args.length < 1 || args.length > 2)
            {
                throw new IllegalArgumentException("usage: " + program + " ORDER [CHUNK], got " + args.length +
                    " arguments");
            }
            return BlockGrid.of(integer("matrix order", args[0]), ranks,
                args.length == 2 ? integer("chunk", args[1]) : 0);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println(program + ": " + ex.getMessage());
            System.exit(BAD_ARGUMENTS_STATUS);
            return null;
        }
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
