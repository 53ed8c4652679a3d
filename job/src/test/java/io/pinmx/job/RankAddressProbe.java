package io.pinmx.job;

/**
 * Prints the address a PMIx rank of a two-node job would pick here ({@link RankAddress#withoutRoute}, node ranks
 * unknown) as "address interface (rule)", or the error on stderr with exit status 3: run inside a network namespace
 * to see what a rank there sees.
 */
public final class RankAddressProbe
{
    private static final int JOB_SIZE = 2;
    private static final int NO_ADDRESS_STATUS = 3;

    private RankAddressProbe()
    {
    }

    public static void main(final String[] args)
    {
        try
        {
            final RankAddress chosen = RankAddress.withoutRoute(null, JOB_SIZE);
            System.out.println(chosen.address().getHostAddress() + " " + chosen.interfaceName() + " (" +
                chosen.chosenBy() + ")");
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println(ex.getMessage());
            System.exit(NO_ADDRESS_STATUS);
        }
    }
}
