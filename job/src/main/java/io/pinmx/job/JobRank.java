package io.pinmx.job;

import java.util.Map;

/**
 * This process's rank and the job's size, read from the variables of whichever {@link Launcher} started it:
 * pinmx-run (PINMX_RANK, PINMX_SIZE), Open MPI (OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE), Slurm (SLURM_PROCID,
 * SLURM_NTASKS), PMI (PMI_RANK, PMI_SIZE) or PMIx (PMIX_RANK, with PINMX_SIZE), in that order of preference.
 */
public record JobRank(int rank, int size)
{
    public JobRank
    {
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank " + rank + " of size " + size + " is not a rank in 0.." + (size - 1));
        }
    }

    /**
     * @throws IllegalArgumentException naming the variable that is missing or not a number.
     */
    public static JobRank fromEnvironment(final Map<String, String> env)
    {
        for (final Launcher launcher : Launcher.values())
        {
            if (null != env.get(launcher.rankVariable()))
            {
                if (Launcher.PMIX == launcher && null == env.get(launcher.sizeVariable()))
                {
                    throw new IllegalArgumentException("PMIX_RANK is set but PMIx gives the job's size only through " +
                        "its library (PMIX_JOB_SIZE): set PINMX_SIZE to the number of ranks");
                }
                return new JobRank(integer(env, launcher.rankVariable()), integer(env, launcher.sizeVariable()));
            }
        }
        throw new IllegalArgumentException("no rank in the environment: start with bin/pinmx-run, or under a launcher " +
            "that sets one of " + Launcher.describeAll());
    }

    private static int integer(final Map<String, String> env, final String name)
    {
        final String value = env.get(name);
        if (null == value)
        {
            throw new IllegalArgumentException(name + " is not set");
        }
        try
        {
            return Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + "=" + value + " is not an integer");
        }
    }
}
