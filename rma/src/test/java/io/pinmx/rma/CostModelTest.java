package io.pinmx.rma;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static io.pinmx.rma.CostModel.SizeClass.LARGE;
import static io.pinmx.rma.CostModel.SizeClass.SMALL;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protocol choice from given costs, and the model's cache file: written, read back, refused when damaged.
 */
class CostModelTest
{
    private static final CostModel.Line FREE = new CostModel.Line(0, 0);
    private static final CostModel.Curve FREE_CURVE = new CostModel.Curve(new long[] {1, 2}, new double[] {0, 0});

    @TempDir
    Path dir;

    /**
     * Gets: ts 10 us, tn 1 ns/B, a direct piece 2 us, a packed byte 0.2 ns. Puts: ts 20 us, tn 2 ns/B, a direct piece
     * 30 us, a packed byte 0.2 ns. Accumulates: a direct piece 50 ns, a packed byte 0.5 ns. Contiguous gets: zero-copy
     * 50 us + 1 ns/B, streaming 10 us + 1.2 ns/B (each measured at 1 KB and 1 MB).
     */
    private static CostModel model()
    {
        return new CostModel("user-host-lo", new CostModel.Line(10_000, 1.0), new CostModel.Line(20_000, 2.0),
            both(2_000, 0.2), both(30_000, 0.2), both(50, 0.5),
            curve(1_000, 51_000, 1_000_000, 1_050_000), curve(1_000, 11_200, 1_000_000, 1_210_000), FREE_CURVE,
            FREE_CURVE);
    }

    /** @return the same tp and tc in both size classes. */
    private static CostModel.Strided both(final double pieceNs, final double packByteNs)
    {
        final CostModel.Gap gap = new CostModel.Gap(pieceNs, packByteNs);
        return new CostModel.Strided(gap, gap);
    }

    private static CostModel withStrided(final CostModel.Strided strided)
    {
        return new CostModel("k", FREE, FREE, strided, strided, strided, FREE_CURVE, FREE_CURVE, FREE_CURVE,
            FREE_CURVE);
    }

    /** @return the curve through (bytes, ns) pairs. */
    private static CostModel.Curve curve(final double... pairs)
    {
        final long[] bytes = new long[pairs.length / 2];
        final double[] ns = new double[pairs.length / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (long)pairs[2 * i];
            ns[i] = pairs[2 * i + 1];
        }
        return new CostModel.Curve(bytes, ns);
    }

    @Test
    void stridedChoiceWeighsEachPiecesCostAgainstEachPackedBytes()
    {
        final CostModel m = model();
        // 4 pieces of 8 B: direct 10000 + 32 + 4 * 2000 = 18032 ns; pack 10000 + 32 + 6.4 ns.
        assertEquals(18_032, m.directNs(CostModel.Kind.GET, SMALL, 4, 8), 1e-9);
        assertEquals(10_038.4, m.packNs(CostModel.Kind.GET, SMALL, 4, 8), 1e-9);
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.GET, SMALL, 4, 8));
        // Direct once a piece is at least tp / tc = 10000 B, whatever the count: both pay ts + tn N once.
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.GET, SMALL, 64, 9_999));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.GET, SMALL, 64, 10_001));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.GET, SMALL, 2, 1 << 20));
        // Each kind its own costs: a put's piece (30 us) needs pieces of 150000 B, an accumulate's (50 ns) 100 B.
        assertEquals(20_000 + 2.0 * 2 * 100_000 + 2 * 30_000, m.directNs(CostModel.Kind.PUT, SMALL, 2, 100_000),
            1e-9);
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.PUT, SMALL, 2, 100_000));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.PUT, SMALL, 2, 150_001));
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.ACC, SMALL, 128, 64));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.ACC, SMALL, 128, 1024));
        // Free pieces: direct always (and on a tie).
        assertEquals(StridedProtocol.DIRECT, withStrided(both(0, 0)).strided(CostModel.Kind.PUT, SMALL, 256,
            8));
    }

    @Test
    void eachSizeClassHasItsOwnCosts()
    {
        // The sweep's puts: packed 2x faster at 32 rows of 256 B (small: copied in with the request), slower from 64
        // rows of 512 B (large: streamed chunks against pulled pieces). Small: tp 500 ns, tc 0.1 ns/B, crossing at
        // 5000 B pieces; large: tp 0, direct always.
        final CostModel.Strided split = new CostModel.Strided(new CostModel.Gap(500, 0.1), new CostModel.Gap(0, 0.12));
        final CostModel m = new CostModel("k", new CostModel.Line(15_000, 0.5), new CostModel.Line(15_000, 0.5), split,
            split, split, FREE_CURVE, FREE_CURVE, FREE_CURVE, FREE_CURVE);
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.PUT, SMALL, 32, 256));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.PUT, LARGE, 32, 256));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.ACC, LARGE, 64, 512));
        assertEquals(15_000 + 0.5 * 8192 + 32 * 500, m.directNs(CostModel.Kind.GET, SMALL, 32, 256), 1e-9);
        assertEquals(15_000 + 0.5 * 8192, m.directNs(CostModel.Kind.GET, LARGE, 32, 256), 1e-9);
        assertEquals(15_000 + 0.5 * 8192 + 0.12 * 8192, m.packNs(CostModel.Kind.GET, LARGE, 32, 256), 1e-9);
        final IllegalArgumentException noLarge = assertThrows(IllegalArgumentException.class, () -> withStrided(
            new CostModel.Strided(new CostModel.Gap(0, 0), null)));
        assertTrue(noLarge.getMessage().contains("get.large"), noLarge.getMessage());
        final IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class, () -> withStrided(
            new CostModel.Strided(new CostModel.Gap(0, 0), new CostModel.Gap(0, Double.NaN))));
        assertTrue(notANumber.getMessage().contains("get.large.packByteNs = NaN"), notANumber.getMessage());
    }

    @Test
    void calibrationSolvesEachPiecesAndPackedBytesCostFromTheGapsBetweenTheProtocols()
    {
        // 64 pieces: of 256 B direct 80 us, packed 60 us (a gap of 312.5 ns a piece); of 1 KiB direct 150 us, packed
        // 170 us (-312.5 ns): the gap shrinks by 625 ns over 768 B, and crosses 0 at 640 B.
        final CostModel.Gap s = Calibration.gap(256, 80_000, 60_000, 1024, 150_000, 170_000);
        assertEquals(625.0 / 768, s.packByteNs(), 1e-12);
        assertEquals(312.5 + 256 * 625.0 / 768, s.pieceNs(), 1e-9);
        assertEquals(640, s.pieceNs() / s.packByteNs(), 1e-9);
        final CostModel m = withStrided(new CostModel.Strided(s, s));
        assertEquals(StridedProtocol.PACK, m.strided(CostModel.Kind.PUT, SMALL, 32, 512));
        assertEquals(StridedProtocol.DIRECT, m.strided(CostModel.Kind.PUT, SMALL, 128, 1024));
        // Whatever one contiguous transfer costs: the same gaps at other totals give the same costs.
        assertEquals(s, Calibration.gap(256, 180_000, 160_000, 1024, 350_000, 370_000));
        // A gap that grows with the pieces (noise): no cost per packed byte, pack wherever a piece costs anything.
        assertEquals(new CostModel.Gap(312.5, 0), Calibration.gap(256, 80_000, 60_000, 1024, 100_000, 70_000));
        // Direct faster at both sizes: free pieces, direct always.
        assertEquals(new CostModel.Gap(0, 0), Calibration.gap(256, 50_000, 60_000, 1024, 90_000, 100_000));
    }

    @Test
    void contiguousChoiceStreamsOnlyWhenItsCurveIsClearlyLower()
    {
        final CostModel m = model();
        // zero-copy 50000 + n, stream 10000 + 1.2 n: 60000 against 22000 ns at n = 10000.
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 10_000));
        // 150000 against 130000 ns: 13% lower, more than the margin.
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 100_000));
        // 175000 against 160000 ns: 8.6% lower, more than the margin (inside the sweep's 10% tolerance).
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 125_000));
        // 200000 against 190000 ns: 5% lower, not more than the margin; then equal.
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 150_000));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 200_000));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 1 << 22));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(true, 1 << 22));
    }

    @Test
    void curveFollowsItsPointsAndCarriesTheNearestSegmentOnNeverFallingWithSize()
    {
        final CostModel.Curve c = curve(4096, 20_000, 32_768, 30_000, 262_144, 100_000);
        assertEquals(20_000, c.at(4096), 1e-9);
        assertEquals(25_000, c.at(4096 + (32_768 - 4096) / 2), 1e-9);
        assertEquals(100_000, c.at(262_144), 1e-9);
        // Above the largest: the last segment's slope, 70000 ns over 229376 B.
        assertEquals(100_000 + 70_000.0 / 229_376 * 262_144, c.at(2 * 262_144), 1e-6);
        // Below the smallest: the first segment's slope, down to 0 at most.
        assertEquals(20_000 - 10_000.0 / 28_672 * 4088, c.at(8), 1e-6);
        assertEquals(0, curve(1_000_000, 10, 2_000_000, 1_000_000).at(1), 1e-9);
        // A segment that falls (noise between two sizes) is followed between them, carried on flat beyond.
        final CostModel.Curve falling = curve(1_000, 5_000, 2_000, 4_000);
        assertEquals(4_500, falling.at(1_500), 1e-9);
        assertEquals(5_000, falling.at(10), 1e-9);
        assertEquals(4_000, falling.at(1 << 20), 1e-9);
    }

    @Test
    void contiguousChoiceFollowsTheCurvesAtSmallSizesWhereLinesThroughLargeOnesMissed()
    {
        // Zero-copy pays a fresh region's declaration (~10 us), so streaming wins small transfers; from 256 KiB on
        // zero-copy wins. A line through the two large sizes alone would put 4 KiB on zero-copy (~9 us against 18).
        final CostModel.Curve zeroCopy = curve(4096, 18_000, 32_768, 25_000, 262_144, 110_000, 4 << 20, 1_800_000);
        final CostModel.Curve stream = curve(4096, 9_000, 32_768, 15_000, 262_144, 125_000, 4 << 20, 2_000_000);
        final CostModel.Strided none = both(0, 0);
        final CostModel m = new CostModel("k", FREE, FREE, none, none, none, zeroCopy, stream, zeroCopy, stream);
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 8));
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 4096));
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(true, 16_384));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 262_144));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(true, 16 << 20));
    }

    @Test
    void memoryDeclaredAlreadyGoesZeroCopyUnlessStreamingIsForced()
    {
        final ProtocolChoice choice = new ProtocolChoice(StridedProtocol.AUTO, ContiguousProtocol.AUTO,
            PassivePuts.AUTO);
        choice.model(model());
        final Pieces get = Pieces.strided(StridedPatch.contiguous(10_000), Arena.ofAuto().allocate(10_000), 0, false);
        assertEquals(ContiguousProtocol.STREAM, choice.contiguous(false, get, m -> false));
        assertEquals(ContiguousProtocol.ZERO_COPY, choice.contiguous(false, get, m -> true));
        assertEquals(new ProtocolCounts(0, 0, 1, 1, 0), choice.counts());
        choice.force(StridedProtocol.AUTO, ContiguousProtocol.STREAM);
        assertEquals(ContiguousProtocol.STREAM, choice.contiguous(false, get, m -> true));
    }

    @Test
    void refusesImpossibleCosts()
    {
        final CostModel.Strided none = both(0, 0);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
            withStrided(both(-1, 0)));
        assertTrue(ex.getMessage().contains("get.small.pieceNs = -1"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CostModel("k", new CostModel.Line(Double.NaN, 0), FREE,
            none, none, none, FREE_CURVE, FREE_CURVE, FREE_CURVE, FREE_CURVE));
        final IllegalArgumentException noAcc = assertThrows(IllegalArgumentException.class, () -> new CostModel("k",
            FREE, FREE, none, none, null, FREE_CURVE, FREE_CURVE, FREE_CURVE, FREE_CURVE));
        assertTrue(noAcc.getMessage().contains("acc"), noAcc.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> new CostModel("k",
            FREE, FREE, none, none, none, FREE_CURVE, null, FREE_CURVE, FREE_CURVE));
        assertTrue(missing.getMessage().contains("getStream"), missing.getMessage());
        final IllegalArgumentException order = assertThrows(IllegalArgumentException.class,
            () -> curve(4096, 1, 4096, 2));
        assertTrue(order.getMessage().contains("not increasing"), order.getMessage());
        assertThrows(IllegalArgumentException.class, () -> curve(4096, 1));
        assertThrows(IllegalArgumentException.class, () -> curve(4096, 1, 8192, -1));
        assertThrows(IllegalArgumentException.class, () -> new CostModel.Curve(new long[] {1, 2}, new double[] {1}));
    }

    @Test
    void fileRoundTrips() throws Exception
    {
        final Path file = dir.resolve("sub/model.properties");
        assertNull(CostModelFile.read(file, "user-host-lo"), "no file yet");
        CostModelFile.write(file, model(), CalibrationEffort.FULL);
        assertEquals(new CostModelFile.Stored(model(), CalibrationEffort.FULL), CostModelFile.read(file, "user-host-lo"));
        CostModelFile.write(file, model(), CalibrationEffort.QUICK);
        assertEquals(CalibrationEffort.QUICK, CostModelFile.read(file, "user-host-lo").effort());
        try (var left = Files.list(file.getParent()))
        {
            assertEquals(1, left.count(), "no temporary file left");
        }
    }

    @Test
    void aQuickModelServesQuickJobsOnlyAndAFullOneServesBoth()
    {
        assertTrue(CalibrationEffort.FULL.serves(CalibrationEffort.FULL));
        assertTrue(CalibrationEffort.FULL.serves(CalibrationEffort.QUICK));
        assertTrue(CalibrationEffort.QUICK.serves(CalibrationEffort.QUICK));
        assertFalse(CalibrationEffort.QUICK.serves(CalibrationEffort.FULL));
        assertEquals("quick", CalibrationEffort.QUICK.word());
        assertEquals(CalibrationEffort.FULL, CalibrationEffort.parse("V", CalibrationEffort.FULL.word()));
    }

    @Test
    void damagedFileIsRefusedNamingIt() throws Exception
    {
        final Path file = dir.resolve("model.properties");
        CostModelFile.write(file, model(), CalibrationEffort.FULL);
        final String text = Files.readString(file);
        Files.writeString(file, text.replace("get.large.pieceNs=2000", "get.large.pieceNs=2001"), StandardCharsets.UTF_8);
        final RmaException checksum = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(checksum.getMessage().contains(file.toString()) && checksum.getMessage().contains("checksum") &&
            checksum.getMessage().contains(RmaOptions.RECALIBRATE_VARIABLE), checksum.getMessage());

        Files.writeString(file, text.substring(0, text.length() / 2), StandardCharsets.UTF_8);
        final RmaException cut = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(cut.getMessage().contains("no crc32"), cut.getMessage());

        Files.writeString(file, text, StandardCharsets.UTF_8);
        final RmaException other = assertThrows(RmaException.class, () -> CostModelFile.read(file, "kernel-host-eth0"));
        assertTrue(other.getMessage().contains("measured for user-host-lo, not kernel-host-eth0"), other.getMessage());

        Files.writeString(file, withChecksum(text.replace("effort=full\n", "effort=fast\n")), StandardCharsets.UTF_8);
        final RmaException effort = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(effort.getMessage().contains(file + " has effort=fast: expected full or quick"), effort.getMessage());
        Files.writeString(file, withChecksum(text.replace("effort=full\n", "")), StandardCharsets.UTF_8);
        final RmaException noEffort = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(noEffort.getMessage().contains(file + " has no effort"), noEffort.getMessage());

        Files.writeString(file, withChecksum(text.replaceFirst("put\\.small\\.packByteNs=[0-9.]+\n", "")),
            StandardCharsets.UTF_8);
        final RmaException noClass = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(noClass.getMessage().contains(file + " has no put.small.packByteNs"), noClass.getMessage());

        final String shortCurve = withChecksum(text.replaceFirst("getStream\\.ns=[0-9.]+ ", "getStream.ns="));
        Files.writeString(file, shortCurve, StandardCharsets.UTF_8);
        final RmaException curve = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(curve.getMessage().contains(file.toString()) && curve.getMessage().contains("impossible cost"),
            curve.getMessage());
    }

    @Test
    void keyNamesProviderHostInterfaceAndInlineLimitInFileNameCharacters()
    {
        assertEquals("user-node_1-veth0-inline32768", CostModels.key("user", "node 1", "veth0", 32_768));
        // Another inline limit moves the size classes' boundary: a model of its own.
        assertNotEquals(CostModels.key("kernel", "h", "lo", 32_768), CostModels.key("kernel", "h", "lo", 8_192));
        assertEquals("kernel-h-_none_-inline65536", CostModels.key("kernel", "h", "(none)", 65_536));
    }

    @Test
    void cacheDirectoryFollowsXdgThenHome()
    {
        assertEquals(Path.of("/c"), CostModelFile.cacheDirectory(java.util.Map.of("XDG_CACHE_HOME", "/c", "HOME", "/h")));
        assertEquals(Path.of("/h/.cache"), CostModelFile.cacheDirectory(java.util.Map.of("XDG_CACHE_HOME", "rel",
            "HOME", "/h")));
        assertEquals(Path.of(System.getProperty("user.home"), ".cache"), CostModelFile.cacheDirectory(java.util.Map.of()));
    }

    @Test
    void fileOfAnotherFormatIsMeasuredAgainNotRefused() throws Exception
    {
        final Path file = dir.resolve("model.properties");
        CostModelFile.write(file, model(), CalibrationEffort.FULL);
        final String older = withChecksum(Files.readString(file).replace("format=" + CostModelFile.FORMAT + "\n",
            "format=1\n"));
        Files.writeString(file, older, StandardCharsets.UTF_8);
        assertNull(CostModelFile.read(file, "user-host-lo"));
    }

    /** @return the file's text with its checksum line made right for what is above it. */
    private static String withChecksum(final String text)
    {
        final String body = text.substring(0, text.lastIndexOf("crc32="));
        final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return body + "crc32=" + Long.toHexString(crc.getValue()) + "\n";
    }

    @Test
    void optionsParseEveryWordAndRefuseOthers()
    {
        final RmaOptions o = RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.STRIDED_VARIABLE, "pack",
            RmaOptions.CONTIGUOUS_VARIABLE, "zerocopy", RmaOptions.RECALIBRATE_VARIABLE, "1",
            RmaOptions.MODEL_FILE_VARIABLE, dir.resolve("m").toString()));
        assertEquals(StridedProtocol.PACK, o.strided());
        assertEquals(ContiguousProtocol.ZERO_COPY, o.contiguous());
        assertTrue(o.recalibrate());
        assertEquals(dir.resolve("m"), o.modelFile());
        final RmaOptions d = RmaOptions.fromEnvironment(java.util.Map.of());
        assertEquals(StridedProtocol.AUTO, d.strided());
        assertEquals(ContiguousProtocol.AUTO, d.contiguous());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.CONTIGUOUS_VARIABLE, "fast")));
        assertTrue(ex.getMessage().contains("PINMX_RMA_CONTIGUOUS=fast"), ex.getMessage());
        assertEquals(CalibrationEffort.FULL, d.calibration());
        assertEquals(CalibrationEffort.QUICK, RmaOptions.fromEnvironment(
            java.util.Map.of(RmaOptions.CALIBRATION_VARIABLE, "quick")).calibration());
        final IllegalArgumentException effort = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.CALIBRATION_VARIABLE, "fast")));
        assertTrue(effort.getMessage().contains("PINMX_RMA_CALIBRATION=fast"), effort.getMessage());
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.defaults().withCalibration(null));
        assertTrue(none.getMessage().contains("calibration"), none.getMessage());
        assertEquals(DriverWrites.AUTO, d.driverWrites());
        assertEquals(DriverWrites.AUTO, RmaOptions.defaults().driverWrites());
        assertEquals(DriverWrites.ON,
            RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.DRIVER_WRITES_VARIABLE, "1")).driverWrites());
        assertEquals(DriverWrites.OFF,
            RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.DRIVER_WRITES_VARIABLE, "0")).driverWrites());
        final IllegalArgumentException writes = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.DRIVER_WRITES_VARIABLE, "no")));
        assertTrue(writes.getMessage().contains("PINMX_RMA_DRIVER_WRITES=no: expected auto, 1 or 0"),
            writes.getMessage());
        final IllegalArgumentException noWrites = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.defaults().withDriverWrites(null));
        assertTrue(noWrites.getMessage().contains("driver writes"), noWrites.getMessage());
        assertTrue(d.accessEpochs());
        assertTrue(RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "1")).accessEpochs());
        assertFalse(RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "0")).accessEpochs());
        assertFalse(RmaOptions.defaults().withAccessEpochs(false).withCalibration(CalibrationEffort.QUICK)
            .accessEpochs());
        final IllegalArgumentException epochs = assertThrows(IllegalArgumentException.class,
            () -> RmaOptions.fromEnvironment(java.util.Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "no")));
        assertTrue(epochs.getMessage().contains("PINMX_RMA_ACCESS_EPOCHS=no: expected 0 or 1"), epochs.getMessage());
    }
}
