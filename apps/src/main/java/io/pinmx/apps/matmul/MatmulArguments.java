package io.pinmx.apps.matmul;

/** The matrix programs' one argument, the order; a bad one, or one the ranks cannot share, ends the program. */
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
            if (args.length != 1)
            {
                throw new IllegalArgumentException("usage: " + program + " ORDER, got " + args.length + " arguments");
            }
            final int order;
            try
            {
                order = Integer.parseInt(args[0]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("matrix order '" + args[0] + "' is not an integer");
            }
            return BlockGrid.of(order, ranks);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println(program + ": " + ex.getMessage());
            System.exit(BAD_ARGUMENTS_STATUS);
            return null;
        }
    }
}
