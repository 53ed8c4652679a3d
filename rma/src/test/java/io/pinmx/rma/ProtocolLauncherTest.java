package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver tier's protocols in real jobs of 2 JVMs (bin/pinmx-run, shared memory off: UDP frames): the
 * {@code protocols} scenario with each protocol forced and with the model's choice, byte-exact at both ends; and the
 * cost model's file: written by the first job, used as it is by the next, refused naming it when damaged, measured
 * again on request (announced once by rank 0 before it starts); a model that prices small and large requests apart,
 * followed by the tier. The scenario jobs share one quickly measured model, measured by whichever runs first: the
 * scenarios check what the tier did, not what a full measurement would have chosen.
 */
class ProtocolLauncherTest
{
    private static final long RUN_DEADLINE_S = 240;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private LaunchedJob.Result run(final Path modelFile, final Map<String, String> extra, final String scenarios)
        throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        // No rank dies here: a long peer timeout keeps a rank starved on a loaded 2-core host (its JIT warm-up
        // during the calibration's traffic can go unheard for seconds) from being taken for dead.
        final Map<String, String> env = new HashMap<>(Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, "0",
            RmaOptions.MODEL_FILE_VARIABLE, modelFile.toString(),
            "PINMX_PEER_TIMEOUT_MS", "30000"));
        env.putAll(extra);
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, env, 2,
            RmaScenarios.class.getName(), scenarios);
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
        return job;
    }

    /** @return the model file the scenario jobs share (one measurement for all of them). */
    private static Path sharedQuickModel()
    {
        return shared.resolve("model.properties");
    }

    @ParameterizedTest(name = "strided {0}, contiguous {1}")
    @CsvSource({"direct, zerocopy", "pack, stream", "auto, auto"})
    void everyFormIsExactWithEachProtocol(final String strided, final String contiguous) throws Exception
    {
        final LaunchedJob.Result job = run(sharedQuickModel(), Map.of(RmaOptions.CALIBRATION_VARIABLE, "quick",
            RmaOptions.STRIDED_VARIABLE, strided, RmaOptions.CONTIGUOUS_VARIABLE, contiguous), "protocols");
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        assertTrue(job.out().lines().anyMatch("PASSED protocols"::equals), job.out() + job.err());
    }

    @Test
    void packedGetsBeyondTheTargetsPackAreaGoInChunksAndLandExact() throws Exception
    {
        final LaunchedJob.Result job = run(sharedQuickModel(), Map.of(RmaOptions.CALIBRATION_VARIABLE, "quick",
            RmaOptions.STRIDED_VARIABLE, "pack"), "packArea");
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        assertTrue(job.out().lines().anyMatch("PASSED packArea"::equals), job.out() + job.err());
    }

    @Test
    void modelFileIsWrittenReusedRefusedWhenDamagedAndMeasuredAgainOnRequest() throws Exception
    {
        // Quick jobs until the last: the full measurement is the last step's.
        final Map<String, String> quick = Map.of(RmaOptions.CALIBRATION_VARIABLE, "quick");
        final Path model = dir.resolve("cache/model.properties");
        final LaunchedJob.Result first = run(model, quick, "handles");
        assertEquals(0, first.exitStatus(), first.out() + first.err());
        final String text = Files.readString(model);
        final String key = text.lines().filter(l -> l.startsWith("key=")).findFirst().orElseThrow().substring(4);
        final CostModelFile.Stored measured = CostModelFile.read(model, key);
        assertNotNull(measured);
        assertEquals(CalibrationEffort.QUICK, measured.effort());
        assertTrue(first.err().contains("measured the cost model " + key + " (quick) in "), first.err());
        // Both ranks are on one host and interface: the second takes the model the first just wrote.
        assertEquals(1, first.err().lines().filter(l -> l.contains("measured the cost model")).count(), first.err());

        // Used as it is: the next job does not rewrite it.
        Files.setLastModifiedTime(model, FileTime.fromMillis(1_000_000));
        final LaunchedJob.Result second = run(model, quick, "handles");
        assertEquals(0, second.exitStatus(), second.out() + second.err());
        assertEquals(FileTime.fromMillis(1_000_000), Files.getLastModifiedTime(model), "the cached model was rewritten");
        assertFalse(second.err().contains("measured the cost model"), second.err());

        // Each request is priced by its size class: with small requests packed and large ones direct, the tier
        // classes each as the calibration measured it; with streaming always cheaper, only a put that would send from
        // a region it has goes zero-copy.
        final CostModel m = measured.model();
        final CostModel.Strided split = new CostModel.Strided(new CostModel.Gap(1e6, 0), new CostModel.Gap(0, 1));
        final CostModel.Curve dear = new CostModel.Curve(new long[] {1, 1 << 30}, new double[] {1e6, 1e12});
        final CostModel.Curve cheap = new CostModel.Curve(new long[] {1, 1 << 30}, new double[] {1, 1e6});
        CostModelFile.write(model, new CostModel(key, m.getContiguous(), m.putContiguous(), split, split, split, dear,
            cheap, dear, cheap), CalibrationEffort.FULL);
        final LaunchedJob.Result classes = run(model, Map.of(), "sizeClasses");
        assertEquals(0, classes.exitStatus(), classes.out() + classes.err());
        assertTrue(classes.out().lines().anyMatch("PASSED sizeClasses"::equals), classes.out() + classes.err());

        // Damaged: every rank refuses to start, naming the file.
        Files.writeString(model, text.replace("acc.large.packByteNs=", "acc.large.packByteNs=9"),
            StandardCharsets.UTF_8);
        final LaunchedJob.Result damaged = run(model, Map.of(), "handles");
        assertNotEquals(0, damaged.exitStatus(), damaged.out());
        assertTrue(damaged.err().contains("rma cost model file " + model + " is damaged"), damaged.err());

        // Measured again on request, quickly if asked, announced once by rank 0 before it starts, and written whole.
        final LaunchedJob.Result again = run(model, Map.of(RmaOptions.RECALIBRATE_VARIABLE, "1",
            RmaOptions.CALIBRATION_VARIABLE, "quick"), "handles");
        assertEquals(0, again.exitStatus(), again.out() + again.err());
        assertTrue(again.err().contains("measured the cost model " + key + " (quick)"), again.err());
        assertAnnouncedOnceBeforeMeasured(again.err(), model);
        assertEquals(CalibrationEffort.QUICK, CostModelFile.read(model, key).effort());

        // A quick model does not serve a full job: it is measured fully and replaced.
        final LaunchedJob.Result full = run(model, Map.of(), "handles");
        assertEquals(0, full.exitStatus(), full.out() + full.err());
        assertTrue(full.err().contains("measured the cost model " + key + " (full)"), full.err());
        assertEquals(CalibrationEffort.FULL, CostModelFile.read(model, key).effort());
    }

    private static void assertAnnouncedOnceBeforeMeasured(final String err, final Path model)
    {
        final List<String> lines = err.lines().toList();
        final List<String> announced = lines.stream().filter(l -> l.contains("measuring the cost model")).toList();
        assertEquals(1, announced.size(), err);
        assertTrue(announced.getFirst().matches("\\[rank 0\\] pinmx-rma: measuring the cost model \\S+ \\(quick\\) on 2 " +
            "rank\\(s\\), one after another, about 6 s; kept in " + Pattern.quote(model.toString()) + " for later jobs"),
            announced.getFirst());
        final int firstMeasured = lines.indexOf(lines.stream().filter(l -> l.contains("measured the cost model"))
            .findFirst().orElseThrow());
        assertTrue(lines.indexOf(announced.getFirst()) < firstMeasured, err);
    }
}
