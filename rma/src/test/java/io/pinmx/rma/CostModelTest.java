package io.pinmx.rma;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protocol choice from given costs, and the model's cache file: written, read back, refused when damaged.
 */
class CostModelTest
{
    private static final CostModel.Line FREE = new CostModel.Line(0, 0);

    @TempDir
    Path dir;

    /** ts 10 us, tn 1 ns/B, tm 0.1 ns/B; a direct piece costs 2 us. */
    private static CostModel model()
    {
        return new CostModel("user-host-lo", new CostModel.Line(10_000, 1.0), 2_000, new CostModel.Line(20_000, 2.0),
            30_000, 0.1, new CostModel.Line(50_000, 1.0), new CostModel.Line(10_000, 1.2), FREE, FREE);
    }

    @Test
    void stridedChoiceFollowsTheSeedsFormula()
    {
        final CostModel m = model();
        // 4 pieces of 8 B: direct 4 * (2000 + 8) = 8032 ns; pack 10000 + 32 + 6.4 ns.
        assertEquals(8032, m.directNs(false, 4, 8), 1e-9);
        assertEquals(10_038.4, m.packNs(false, 4, 8), 1e-9);
        assertEquals(StridedProtocol.DIRECT, m.strided(false, 4, 8));
        // 64 pieces of 512 B: direct 64 * 2512 = 160768 ns; pack 10000 + 32768 + 6553.6 ns.
        assertEquals(StridedProtocol.PACK, m.strided(false, 64, 512));
        // Puts use their own costs: a direct piece (30 us) costs more than a whole packed transfer (20 us).
        assertEquals(StridedProtocol.PACK, m.strided(true, 2, 8));
        // Large pieces: the copies cost more than the start-ups saved.
        assertEquals(StridedProtocol.DIRECT, m.strided(false, 2, 1 << 20));
    }

    @Test
    void contiguousChoiceStreamsOnlyWhenItsLineIsClearlyLower()
    {
        final CostModel m = model();
        // zero-copy 50000 + n, stream 10000 + 1.2 n: 60000 against 22000 ns at n = 10000.
        assertEquals(ContiguousProtocol.STREAM, m.contiguous(false, 10_000));
        // 150000 against 130000 ns: lower, but by less than the margin.
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 100_000));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 200_000));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(false, 1 << 22));
        assertEquals(ContiguousProtocol.ZERO_COPY, m.contiguous(true, 1 << 22));
    }

    @Test
    void memoryDeclaredAlreadyGoesZeroCopyUnlessStreamingIsForced()
    {
        final ProtocolChoice choice = new ProtocolChoice(StridedProtocol.AUTO, ContiguousProtocol.AUTO);
        choice.model(model());
        final Pieces get = Pieces.strided(StridedPatch.contiguous(10_000), Arena.ofAuto().allocate(10_000), 0, false);
        assertEquals(ContiguousProtocol.STREAM, choice.contiguous(false, get, m -> false));
        assertEquals(ContiguousProtocol.ZERO_COPY, choice.contiguous(false, get, m -> true));
        assertEquals(new ProtocolCounts(0, 0, 1, 1), choice.counts());
        choice.force(StridedProtocol.AUTO, ContiguousProtocol.STREAM);
        assertEquals(ContiguousProtocol.STREAM, choice.contiguous(false, get, m -> true));
    }

    @Test
    void refusesImpossibleCosts()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new CostModel("k",
            FREE, -1, FREE, 0, 0, FREE, FREE, FREE, FREE));
        assertTrue(ex.getMessage().contains("getPieceNs = -1"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CostModel("k", new CostModel.Line(Double.NaN, 0), 0,
            FREE, 0, 0, FREE, FREE, FREE, FREE));
    }

    @Test
    void fileRoundTrips() throws Exception
    {
        final Path file = dir.resolve("sub/model.properties");
        assertNull(CostModelFile.read(file, "user-host-lo"), "no file yet");
        CostModelFile.write(file, model());
        assertEquals(model(), CostModelFile.read(file, "user-host-lo"));
        try (var left = Files.list(file.getParent()))
        {
            assertEquals(1, left.count(), "no temporary file left");
        }
    }

    @Test
    void damagedFileIsRefusedNamingIt() throws Exception
    {
        final Path file = dir.resolve("model.properties");
        CostModelFile.write(file, model());
        final String text = Files.readString(file);
        Files.writeString(file, text.replace("getPieceNs=2000", "getPieceNs=2001"), StandardCharsets.UTF_8);
        final RmaException checksum = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(checksum.getMessage().contains(file.toString()) && checksum.getMessage().contains("checksum") &&
            checksum.getMessage().contains(RmaOptions.RECALIBRATE_VARIABLE), checksum.getMessage());

        Files.writeString(file, text.substring(0, text.length() / 2), StandardCharsets.UTF_8);
        final RmaException cut = assertThrows(RmaException.class, () -> CostModelFile.read(file, "user-host-lo"));
        assertTrue(cut.getMessage().contains("no crc32"), cut.getMessage());

        Files.writeString(file, text, StandardCharsets.UTF_8);
        final RmaException other = assertThrows(RmaException.class, () -> CostModelFile.read(file, "kernel-host-eth0"));
        assertTrue(other.getMessage().contains("measured for user-host-lo, not kernel-host-eth0"), other.getMessage());
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
    }
}
