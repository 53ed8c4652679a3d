package io.pinmx.job;

import java.util.Arrays;
import java.util.List;

/**
 * The launchers a rank can have been started by, each naming its rank variable and where the job's size is, in
 * the order {@link JobRank#fromEnvironment} tries them: pinmx's own first, so that bin/pinmx-run inside a Slurm
 * allocation still means its own ranks. Where a PMIx server serves the job, {@link Job#join} reads rank and size
 * from it instead; PMIX_RANK without a server (the size is only in the PMIx library) needs PINMX_SIZE.
 */
public enum Launcher
{
    PINMX_RUN("PINMX_RANK", "PINMX_SIZE"),
    OPEN_MPI("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
    SLURM("SLURM_PROCID", "SLURM_NTASKS"),
    PMI("PMI_RANK", "PMI_SIZE"),
    PMIX("PMIX_RANK", "PINMX_SIZE");

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

    /**
     * @return every launcher's rank variable, in the order they are tried, for messages.
     */
    static List<String> describeAll()
    {
        return Arrays.stream(values()).map(l -> l.rankVariable + "/" + l.sizeVariable).toList();
    }
}
