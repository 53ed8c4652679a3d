package io.pinmx.job;

/**
 * The launchers a rank can have been started by, each naming its rank and size variables, in the order
 * {@link JobRank#fromEnvironment} tries them: pinmx's own first, so that bin/pinmx-run inside a Slurm allocation
 * still means its own ranks. PMIx and Open MPI (PMIX_RANK, OMPI_COMM_WORLD_RANK/SIZE) belong here as further
 * constants.
 */
public enum Launcher
{
    PINMX_RUN("PINMX_RANK", "PINMX_SIZE"),
    SLURM("SLURM_PROCID", "SLURM_NTASKS"),
    PMI("PMI_RANK", "PMI_SIZE");

    private final String rankVariable;
    private final String sizeVariable;

    Launcher(final String rankVariable, final String sizeVariable)
    {
        this.rankVariable = rankVariable;
        this.sizeVariable = sizeVariable;
    }

    public String rankVariable()
    {
        return rankVariable;
    }

    public String sizeVariable()
    {
        return sizeVariable;
    }
}
