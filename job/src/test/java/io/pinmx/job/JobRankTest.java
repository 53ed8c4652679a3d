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
    void missingOrBadVariablesAreNamed()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobRank.fromEnvironment(Map.of()))
            .getMessage().contains("SLURM_PROCID"));
        assertEquals("PINMX_SIZE is not set", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("PINMX_RANK", "0"))).getMessage());
        assertEquals("SLURM_NTASKS=two is not an integer", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "two"))).getMessage());
        assertEquals("rank 2 of size 2 is not a rank in 0..1", assertThrows(IllegalArgumentException.class,
            () -> JobRank.fromEnvironment(Map.of("PMI_RANK", "2", "PMI_SIZE", "2"))).getMessage());
    }
}
