package io.pinmx.job;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobRankTest
{
    @Test
    void pinmxThenSlurmThenPmi()
    {
        assertEquals(new JobRank(1, 4), JobRank.fromEnvironment(Map.of(
            "PINMX_RANK", "1", "PINMX_SIZE", "4", "SLURM_PROCID", "2", "SLURM_NTASKS", "8")));
        assertEquals(new JobRank(2, 8), JobRank.fromEnvironment(Map.of(
            "SLURM_PROCID", "2", "SLURM_NTASKS", "8", "PMI_RANK", "3", "PMI_SIZE", "5")));
        assertEquals(new JobRank(3, 5), JobRank.fromEnvironment(Map.of("PMI_RANK", "3", "PMI_SIZE", "5")));
    }

    @Test
    void openMpiAheadOfSlurmAndPmixWhoseSizeComesFromPinmx()
    {
        // What Open MPI's mpirun sets (its own variables and PMIx's rank), inside a Slurm batch script's step 0.
        assertEquals(new JobRank(1, 2), JobRank.fromEnvironment(Map.of("OMPI_COMM_WORLD_RANK", "1",
            "OMPI_COMM_WORLD_SIZE", "2", "PMIX_RANK", "1", "SLURM_PROCID", "0", "SLURM_NTASKS", "1")));
        assertEquals(new JobRank(2, 3), JobRank.fromEnvironment(Map.of("PMIX_RANK", "2", "PINMX_SIZE", "3")));
        assertEquals("PMIX_RANK is set but PMIx gives the job's size only through its library (PMIX_JOB_SIZE): set " +
            "PINMX_SIZE to the number of ranks", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("PMIX_RANK", "0"))).getMessage());
    }

    @Test
    void missingOrBadVariablesAreNamed()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobRank.fromEnvironment(Map.of()))
            .getMessage().contains("OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, SLURM_PROCID/SLURM_NTASKS"));
        assertEquals("PINMX_SIZE is not set", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("PINMX_RANK", "0"))).getMessage());
        assertEquals("SLURM_NTASKS=two is not an integer", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "two"))).getMessage());
        assertEquals("rank 2 of size 2 is not a rank in 0..1", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("PMI_RANK", "2", "PMI_SIZE", "2"))).getMessage());
    }
}
