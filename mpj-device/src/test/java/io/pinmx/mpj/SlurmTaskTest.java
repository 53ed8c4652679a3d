package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.Collectives;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/pinmx-run --mpj} as Slurm's srun runs it: one launcher per task, each with its own SLURM_PROCID, the
 * job's SLURM_NTASKS, SLURM_JOB_ID and SLURM_STEP_ID, and no -np; each starts one JVM with MPJ's arguments for its
 * rank, and the tasks find rank 0 through the bootstrap file in the (shared) home directory. Slurm itself is
 * simulated by those variables: every task here runs on this host.
 */
class SlurmTaskTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;

    private static final int TASKS = 3;

    @TempDir
    Path dir;

    @Test
    void everyTaskRunsItsRankOfTheMpjProgram() throws Exception
    {
        final Path home = Files.createDirectories(dir.resolve("home"));
        final List<Process> tasks = new ArrayList<>();
        for (int task = 0; task < TASKS; task++)
        {
            tasks.add(LaunchedJob.start(dir, "task" + task, Map.of(
                "SLURM_PROCID", Integer.toString(task),
                "SLURM_NTASKS", Integer.toString(TASKS),
                "SLURM_JOB_ID", "4242",
                "SLURM_STEP_ID", "0",
                "HOME", home.toString(),
                "PINMX_BOOTSTRAP_HOST", "127.0.0.1"), List.of("--mpj", Collectives.class.getName())));
        }
        for (int task = 0; task < TASKS; task++)
        {
            final LaunchedJob.Result run = LaunchedJob.finish(tasks.get(task), dir, "task" + task, RUN_DEADLINE_S);
            assertEquals(0, run.exitStatus(), "task " + task + ":\n" + run.err());
            assertEquals("Collectives OK", run.out().trim(), "task " + task + ":\n" + run.err());
        }
        assertFalse(Files.exists(home.resolve(".pinmx/bootstrap-4242.0")), "the bootstrap file outlived the job");
    }

    @Test
    void aTaskWithoutSlurmsJobIdNamesWhatItNeeds() throws Exception
    {
        final Process p = LaunchedJob.start(dir, "lone", Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"),
            List.of("--mpj", Collectives.class.getName()));
        final LaunchedJob.Result run = LaunchedJob.finish(p, dir, "lone", RUN_DEADLINE_S);
        assertEquals(2, run.exitStatus(), run.err());
        assertTrue(run.err().contains("PINMX_BOOTSTRAP"), run.err());
    }
}
