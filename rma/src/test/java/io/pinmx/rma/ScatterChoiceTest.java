package io.pinmx.rma;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The choice between a passive target's driver scattering a strided or vector put per piece (NIC-based) and its data
 * server taking it (host-based): the model's costs, their calibration and file, the forced places, and the rule that
 * a server not known to answer (a stopped target's) is never chosen.
 */
class ScatterChoiceTest
{
    private static final CostModel.Curve FREE_CURVE = new CostModel.Curve(new long[] {1, 2}, new double[] {0, 0});
    /** The module: 40 us a put, 1 ns/B, 3 us a piece (a frame per small piece). */
    private static final CostModel.Scatter SCATTER = new CostModel.Scatter(40_000, 1.0, 3_000);

    @TempDir
    Path dir;

    /**
     * The data server, fitted through the same shapes: up to 32,552 B (a strided put inline at a 32 KiB limit) 100 us a
     * put, 0.5 ns/B, 1 us a piece; past it a start-up of 300 us, the pulled put's.
     */
    private static final CostModel.Served SERVED = new CostModel.Served(32_552,
        new CostModel.Scatter(100_000, 0.5, 1_000), new CostModel.Scatter(300_000, 0.5, 1_000));

    /** Gets, puts and accumulates through the server as free: only the passive peer's two fits choose. */
    private static CostModel model(final CostModel.Scatter scatter, final CostModel.Served served)
    {
        final CostModel.Strided free = new CostModel.Strided(new CostModel.Gap(0, 0), new CostModel.Gap(0, 0));
        return new CostModel("kernel-h-lo-inline32768", new CostModel.Line(0, 0), new CostModel.Line(0, 0),
            free, free, free, FREE_CURVE, FREE_CURVE, FREE_CURVE, FREE_CURVE, scatter, served);
    }

    private static CostModel model(final CostModel.Scatter scatter)
    {
        return model(scatter, null == scatter ? null : SERVED);
    }

    @Test
    void theModuleScattersWhenItsFitIsNoDearerThanTheServersFitThroughTheSameShapes()
    {
        final CostModel m = model(SCATTER);
        // 16 pieces of 128 B (2 KiB): module 40000 + 2048 + 48000 = 90048 ns; server 100000 + 1024 + 16000.
        assertEquals(90_048, SCATTER.at(16, 2_048), 1e-9);
        assertTrue(m.scatterByModule(16, 2_048));
        // 64 pieces of 128 B: module 40000 + 8192 + 192000 = 240192 ns; server 100000 + 4096 + 64000.
        assertFalse(m.scatterByModule(64, 8_192));
        // Few large pieces: the module's start-up is the smaller.
        assertTrue(m.scatterByModule(2, 40_000));
        // The crossing moves with the piece count: module 40 us + 3.128 us k against server 100 us + 1.064 us k.
        assertTrue(m.scatterByModule(29, 29 * 128));
        assertFalse(m.scatterByModule(30, 30 * 128));
        // Past the inline limit the server's own start-up: 64 pieces of 512 B (32 KiB) go to the module, module
        // 40000 + 32768 + 192000 = 264768 ns against 300000 + 16384 + 64000, though 64 of 508 B inline do not.
        assertEquals(380_384, SERVED.at(64, 32_768), 1e-9);
        assertEquals(SERVED.pulled(), SERVED.of(32_553));
        assertEquals(SERVED.inline(), SERVED.of(32_552));
        assertTrue(m.scatterByModule(64, 32_768));
        assertFalse(m.scatterByModule(64, 64 * 508));
    }

    @Test
    void calibrationFitsTheServerOnEachSideOfTheInlineLimitFromItsManyPieceProbesOnly()
    {
        // Times made by 100 us + 0.5 ns/B + 1 us a piece inline and 300 us + 0.25 ns/B + 2 us a piece past it at the
        // calibration's shapes; one-piece probes (NaN: never served) left out: each fit gives its side back.
        final CostModel.Scatter inline = new CostModel.Scatter(100_000, 0.5, 1_000);
        final CostModel.Scatter pulled = new CostModel.Scatter(300_000, 0.25, 2_000);
        final int n = Calibration.SCATTER_PROBES.length;
        final long[] pieces = new long[n];
        final long[] bytes = new long[n];
        final double[] ns = new double[n];
        int inlineProbes = 0;
        for (int i = 0; i < n; i++)
        {
            pieces[i] = Calibration.SCATTER_PROBES[i][0];
            bytes[i] = pieces[i] * Calibration.SCATTER_PROBES[i][1];
            ns[i] = 1 == pieces[i] ? Double.NaN : (bytes[i] <= 32_552 ? inline : pulled).at(pieces[i], bytes[i]);
            inlineProbes += 1 < pieces[i] && bytes[i] <= 32_552 ? 1 : 0;
        }
        assertTrue(inlineProbes >= 3 && n - 2 - inlineProbes >= 3, "three probes a side: " + inlineProbes);
        final CostModel.Served s = Calibration.served(32_552, pieces, bytes, ns);
        assertEquals(32_552, s.inlineBytes());
        assertEquals(100_000, s.inline().startNs(), 1e-3);
        assertEquals(0.5, s.inline().byteNs(), 1e-9);
        assertEquals(1_000, s.inline().pieceNs(), 1e-3);
        assertEquals(300_000, s.pulled().startNs(), 1e-3);
        assertEquals(0.25, s.pulled().byteNs(), 1e-9);
        assertEquals(2_000, s.pulled().pieceNs(), 1e-3);
        // A limit that leaves one side fewer than three probes is refused, naming the count.
        final IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
            () -> Calibration.served(16, pieces, bytes, ns));
        assertTrue(few.getMessage().contains("0 piece counts") && few.getMessage().contains("at least 3"),
            few.getMessage());
        final IllegalArgumentException limit = assertThrows(IllegalArgumentException.class,
            () -> new CostModel.Served(0, inline, pulled));
        assertTrue(limit.getMessage().contains("inlineBytes 0"), limit.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CostModel.Served(32_552, inline, null));
    }

    @Test
    void withoutThePassivePeersCostsTheModuleTakesEveryPutAndTheyComeInPairs()
    {
        final CostModel m = model(null);
        assertTrue(m.scatterByModule(1_000_000, 8_000_000));
        assertEquals(m, model(SCATTER).withScatter(null, null));
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> model(new CostModel.Scatter(0, -1, 0)));
        assertTrue(negative.getMessage().contains("scatter.byteNs = -1"), negative.getMessage());
        final IllegalArgumentException served = assertThrows(IllegalArgumentException.class,
            () -> model(SCATTER, new CostModel.Served(32_552, SCATTER, new CostModel.Scatter(0, 0, Double.NaN))));
        assertTrue(served.getMessage().contains("served.pulled.pieceNs = NaN"), served.getMessage());
        final IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
            () -> model(SCATTER, null));
        assertTrue(alone.getMessage().contains("a scatter and no served put"), alone.getMessage());
    }

    @Test
    void calibrationFitsStartUpBytesAndPiecesThroughTheScatteredPuts()
    {
        // Times made by ts 20 us, tn 1 ns/B, tp 2.5 us at the calibration's shapes: the fit gives them back.
        final CostModel.Scatter truth = new CostModel.Scatter(20_000, 1.0, 2_500);
        final int n = Calibration.SCATTER_PROBES.length;
        final long[] pieces = new long[n];
        final long[] bytes = new long[n];
        final double[] ns = new double[n];
        for (int i = 0; i < n; i++)
        {
            pieces[i] = Calibration.SCATTER_PROBES[i][0];
            bytes[i] = pieces[i] * Calibration.SCATTER_PROBES[i][1];
            ns[i] = truth.at(pieces[i], bytes[i]);
        }
        final CostModel.Scatter s = ScatterFit.fit(pieces, bytes, ns);
        assertEquals(20_000, s.startNs(), 1e-3);
        assertEquals(1.0, s.byteNs(), 1e-9);
        assertEquals(2_500, s.pieceNs(), 1e-3);
        // Many-piece puts costing more a byte than one piece does: a per-piece cost, not a lower start-up.
        final double[] framed = ns.clone();
        framed[4] += 128 * 4_000;
        final CostModel.Scatter more = ScatterFit.fit(pieces, bytes, framed);
        assertTrue(more.pieceNs() > 2_500, more.toString());
        // Pieces no dearer than one transfer of their bytes (noise): no cost a piece, never below 0.
        final double[] cheap = new double[n];
        for (int i = 0; i < n; i++)
        {
            cheap[i] = 20_000 + bytes[i] - 10 * pieces[i];
        }
        final CostModel.Scatter flat = ScatterFit.fit(pieces, bytes, cheap);
        assertEquals(0, flat.pieceNs());
        assertTrue(flat.startNs() >= 0 && flat.byteNs() >= 0, flat.toString());
        final IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
            () -> ScatterFit.fit(new long[] {1, 1}, new long[] {8, 16}, new double[] {1, 2}));
        assertTrue(few.getMessage().contains("at least 3"), few.getMessage());
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
            () -> ScatterFit.fit(new long[] {1, 1, 4}, new long[] {8, 16, 32}, new double[] {1, 0, 2}));
        assertTrue(zero.getMessage().contains("probe 1 took 0.0 ns"), zero.getMessage());
    }

    @Test
    void theServerIsChosenOnlyWhileItAnswersAndTheForcedPlaceWins()
    {
        final Pieces many = pieces(64, 128);
        final AtomicInteger asked = new AtomicInteger();
        final ProtocolChoice auto = new ProtocolChoice(StridedProtocol.AUTO, ContiguousProtocol.AUTO, PassivePuts.AUTO);
        // No model yet: the module, and the server's liveness is not asked.
        assertTrue(auto.scatterByModule(1, many, rank -> asked.incrementAndGet() > 0));
        auto.model(model(SCATTER));
        assertTrue(auto.scatterByModule(1, pieces(16, 128), rank -> asked.incrementAndGet() > 0));
        assertEquals(0, asked.get(), "the module is cheaper: the server's liveness is not asked");
        // The server is cheaper: taken while it answers, the module's scatter otherwise (a stopped target).
        assertFalse(auto.scatterByModule(1, many, rank -> 1 == rank));
        assertTrue(auto.scatterByModule(1, many, rank -> false));

        final ProtocolChoice module = new ProtocolChoice(StridedProtocol.AUTO, ContiguousProtocol.AUTO,
            PassivePuts.MODULE);
        module.model(model(SCATTER));
        assertTrue(module.scatterByModule(1, many, rank -> true));
        final ProtocolChoice server = new ProtocolChoice(StridedProtocol.AUTO, ContiguousProtocol.AUTO,
            PassivePuts.SERVER);
        server.model(model(SCATTER));
        assertFalse(server.scatterByModule(1, pieces(16, 128), rank -> false));
        server.forcePassivePuts(PassivePuts.MODULE);
        assertTrue(server.scatterByModule(1, many, rank -> true));
        assertThrows(IllegalArgumentException.class, () -> server.forcePassivePuts(null));
    }

    @Test
    void aServerAnswersForTheLeaseThenIsProbedOnceUntilItAnswersAgain()
    {
        final AtomicInteger probes = new AtomicInteger();
        final ServerLiveness liveness = new ServerLiveness(3, rank ->
        {
            probes.incrementAndGet();
            return null;
        });
        assertFalse(liveness.answers(2), "never answered");
        assertEquals(1, probes.get());
        liveness.answered(2);
        assertTrue(liveness.answers(2));
        assertFalse(liveness.answers(1), "another rank's answer counts only for it");
        await().atMost(Duration.ofSeconds(30)).until(() -> !liveness.answers(2));
        assertTrue(probes.get() >= 3, "each call past the lease probes again while no probe is pending");
    }

    @Test
    void fileKeepsTheScatterCostsOrSaysThereAreNone() throws Exception
    {
        final Path file = dir.resolve("model.properties");
        CostModelFile.write(file, model(SCATTER), CalibrationEffort.QUICK);
        final CostModelFile.Stored stored = CostModelFile.read(file, "kernel-h-lo-inline32768");
        assertEquals(model(SCATTER), stored.model());
        final String text = Files.readString(file);
        assertTrue(text.contains("format=9\n") && text.contains("scatter.pieceNs=3000.000000\n") &&
            text.contains("served.inlineBytes=32552\n") && text.contains("served.inline.startNs=100000.000000\n") &&
            text.contains("served.pulled.startNs=300000.000000\n"), text);

        final String badLimit = text.replace("served.inlineBytes=32552\n", "served.inlineBytes=32k\n");
        Files.writeString(file, withChecksum(badLimit), StandardCharsets.UTF_8);
        final RmaException notSize = assertThrows(RmaException.class,
            () -> CostModelFile.read(file, "kernel-h-lo-inline32768"));
        assertTrue(notSize.getMessage().contains(file + " has served.inlineBytes=32k, not a size"),
            notSize.getMessage());
        final String noPulled = text.replaceFirst("served\\.pulled\\.byteNs=[0-9.]+\n", "");
        Files.writeString(file, withChecksum(noPulled), StandardCharsets.UTF_8);
        final RmaException pulledMissing = assertThrows(RmaException.class,
            () -> CostModelFile.read(file, "kernel-h-lo-inline32768"));
        assertTrue(pulledMissing.getMessage().contains(file + " has no served.pulled.byteNs"),
            pulledMissing.getMessage());

        final String cut = text.replaceFirst("scatter\\.pieceNs=[0-9.]+\n", "");
        Files.writeString(file, withChecksum(cut), StandardCharsets.UTF_8);
        final RmaException missing = assertThrows(RmaException.class,
            () -> CostModelFile.read(file, "kernel-h-lo-inline32768"));
        assertTrue(missing.getMessage().contains(file + " has no scatter.pieceNs"), missing.getMessage());

        CostModelFile.write(file, model(null), CalibrationEffort.FULL);
        assertTrue(Files.readString(file).contains("\nscatter=none\nserved=none\n"));
        final CostModelFile.Stored none = CostModelFile.read(file, "kernel-h-lo-inline32768");
        assertNull(none.model().scatter());
        // A passive rank measures again a model that lacks the scatter; other ranks take it.
        final RmaOptions options = RmaOptions.defaults().withDirectory(dir);
        assertTrue(CostModels.serves(none, options, false));
        assertFalse(CostModels.serves(none, options, true));
        assertTrue(CostModels.serves(new CostModelFile.Stored(stored.model(), CalibrationEffort.FULL), options,
            true));
        assertFalse(CostModels.serves(null, options, false));
    }

    @Test
    void aFormat8FileWithOneServedLineIsMeasuredAgainSayingSoNeverReadAsTwo() throws Exception
    {
        final Path file = dir.resolve("model.properties");
        CostModelFile.write(file, model(SCATTER), CalibrationEffort.QUICK);
        final String text = Files.readString(file);
        final String served = text.substring(text.indexOf("served.inlineBytes="), text.indexOf("crc32="));
        final String format8 = text.replace("format=9\n", "format=8\n").replace(served,
            "served.startNs=100000.000000\nserved.byteNs=0.500000\nserved.pieceNs=1000.000000\n");
        Files.writeString(file, withChecksum(format8), StandardCharsets.UTF_8);
        final java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        final java.io.PrintStream err = System.err;
        System.setErr(new java.io.PrintStream(said, true, StandardCharsets.UTF_8));
        try
        {
            assertNull(CostModelFile.read(file, "kernel-h-lo-inline32768"));
        }
        finally
        {
            System.setErr(err);
        }
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("the cost model file " + file +
            " has format 8, this library's is 9: measuring again"), said.toString(StandardCharsets.UTF_8));
    }

    @Test
    void optionsParseThePassivePutsAndRefuseOtherWords()
    {
        assertEquals(PassivePuts.AUTO, RmaOptions.fromEnvironment(Map.of()).passivePuts());
        assertEquals(PassivePuts.MODULE, RmaOptions.fromEnvironment(
            Map.of(RmaOptions.PASSIVE_PUTS_VARIABLE, "module")).passivePuts());
        assertEquals(PassivePuts.SERVER, RmaOptions.fromEnvironment(
            Map.of(RmaOptions.PASSIVE_PUTS_VARIABLE, "server")).passivePuts());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
            RmaOptions.fromEnvironment(Map.of(RmaOptions.PASSIVE_PUTS_VARIABLE, "nic")));
        assertTrue(ex.getMessage().contains("PINMX_RMA_PASSIVE_PUTS=nic: expected auto, module or server"),
            ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RmaOptions.defaults().withPassivePuts(null));
    }

    /** @return k pieces of n bytes of a put, every other n bytes at the target. */
    private static Pieces pieces(final int k, final long n)
    {
        final StridedPatch patch = StridedPatch.of(new long[] {n, k}, new long[] {n}, new long[] {2 * n}, 1);
        final MemorySegment source = Arena.ofAuto().allocate(k * n, 8);
        return Pieces.strided(patch, source, 0, true);
    }

    private static String withChecksum(final String text)
    {
        final String body = text.substring(0, text.lastIndexOf("crc32="));
        final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return body + "crc32=" + Long.toHexString(crc.getValue()) + "\n";
    }
}
