package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest
{
    @Test
    void defaultsAreImbs()
    {
        final BenchOptions o = BenchOptions.parse(new String[0]);
        final int[] sizes = o.sizes();
        assertEquals(24, sizes.length);
        assertEquals(0, sizes[0]);
        assertEquals(1, sizes[1]);
        assertEquals(4194304, sizes[23]);
        assertEquals(Repetitions.IMB_DEFAULT, o.repetitions());
        assertEquals("pinmx", o.transport());
        assertFalse(o.hasBaseline());
        assertEquals(BenchOptions.DEFAULT_LOOPS, o.loops());
    }

    @Test
    void baselinesAreAListRunInTheOrderGiven()
    {
        final BenchOptions o = BenchOptions.parse(new String[] {"--baseline", "tcp,tcp-busy,aeron", "-loops", "7"});
        assertEquals(List.of("tcp", "tcp-busy", "aeron"), o.baselines());
        assertEquals(7, o.loops());
        assertFalse(BenchOptions.parse(new String[] {"--baseline", "none"}).hasBaseline());
    }

    @Test
    void msglogChoosesTheSizesAfterZero()
    {
        assertArrayEquals(new int[] {0, 8, 16, 32}, BenchOptions.parse(new String[] {"-msglog", "3:5"}).sizes());
        assertArrayEquals(new int[] {0, 1, 2}, BenchOptions.parse(new String[] {"-msglog", "1"}).sizes());
    }

    @Test
    void allOptionsTogether()
    {
        final BenchOptions o = BenchOptions.parse(new String[] {
            "--transport", "tcp", "--baseline", "tcp", "--plot", "out.svg", "-iter", "50", "-window", "16"});
        assertEquals("tcp", o.transport());
        assertTrue(o.hasBaseline());
        assertEquals(Path.of("out.svg"), o.plot());
        assertTrue(o.iterGiven());
        assertEquals(50, o.repetitions().perSample());
        assertEquals(16, o.window());
    }

    @Test
    void errorsNameTheArgument()
    {
        assertMessage("unknown argument '--fast'", "--fast");
        assertMessage("-msglog needs a value", "-msglog");
        assertMessage("-msglog 5:3: need 0 <= a <= b <= 30", "-msglog", "5:3");
        assertMessage("-msglog 0:31: need 0 <= a <= b <= 30", "-msglog", "0:31");
        assertMessage("-msglog a:b: 'a' is not an integer", "-msglog", "a:b");
        assertMessage("--baseline udp: expected one of pinmx, tcp, tcp-busy, aeron (comma-separated), or none",
            "--baseline", "udp");
        assertMessage("--baseline tcp,,aeron: expected one of pinmx, tcp, tcp-busy, aeron (comma-separated), or none",
            "--baseline", "tcp,,aeron");
        assertMessage("--baseline tcp,tcp: tcp is named twice", "--baseline", "tcp,tcp");
        assertMessage("--transport mpi: expected one of pinmx, tcp, tcp-busy, aeron", "--transport", "mpi");
        assertMessage("-loops 0: need 1..101", "-loops", "0");
        assertMessage("--plot out.jpg: the file must end in .png or .svg", "--baseline", "tcp", "--plot", "out.jpg");
        assertMessage("-window 0: need 1..128", "-window", "0");
    }

    /** A run never measures for minutes only to fail writing its plot: where it goes is checked first. */
    @Test
    void thePlotsPlaceIsCheckedBeforeAnyWork(@TempDir final Path dir) throws Exception
    {
        assertMessage("--plot /nonexistent/dir/x.png: no directory /nonexistent/dir", "--plot", "/nonexistent/dir/x.png");
        assertMessage("--plot " + dir.resolve("missing/x.svg") + ": no directory " + dir.resolve("missing"), "--plot",
            dir.resolve("missing/x.svg").toString());
        final Path directory = Files.createDirectory(dir.resolve("plot.png"));
        assertMessage("--plot " + directory + ": is a directory, not a file", "--plot", directory.toString());
        final Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (!Files.isWritable(readOnly))
        {
            assertMessage("--plot " + readOnly.resolve("x.png") + ": not writable", "--plot",
                readOnly.resolve("x.png").toString());
        }
    }

    /** OSU's names take OSU's options, IMB's names IMB's, and each names the other's option it does not take. */
    @Test
    void osuProgramsTakeOsusOptionsAndImbProgramsImbs()
    {
        final BenchOptions osu = BenchOptions.parse(new String[] {"-m", "8:4096", "-i", "50", "-x", "5"},
            BenchOptions.Style.OSU);
        assertArrayEquals(new int[] {0, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}, osu.sizes());
        assertTrue(osu.iterGiven());
        assertEquals(50, osu.repetitions().perSample());
        assertEquals(5, osu.skip());
        assertArrayEquals(new int[] {0, 1, 2, 4}, BenchOptions.parse(new String[] {"-m", "5"}, BenchOptions.Style.OSU).sizes());
        assertArrayEquals(new int[] {0, 8, 16}, BenchOptions.parse(new String[] {"-m", "5:20"}, BenchOptions.Style.OSU).sizes());
        assertEquals(-1, BenchOptions.parse(new String[0], BenchOptions.Style.OSU).skip());
        assertEquals(BenchOptions.Style.OSU, BenchOptions.style("osu_latency"));
        assertEquals(BenchOptions.Style.IMB, BenchOptions.style("PingPong"));
        assertTrue(BenchOptions.help("osu_bw").contains("-m [MIN:]MAX"));
        assertFalse(BenchOptions.help("PingPong").contains("-m [MIN:]MAX"));

        assertOsuMessage("-msglog is IMB's; the OSU programs take -m [MIN:]MAX (bytes), -i ITERATIONS and -x WARMUP",
            "-msglog", "0:10");
        assertOsuMessage("-iter is IMB's; the OSU programs take -m [MIN:]MAX (bytes), -i ITERATIONS and -x WARMUP",
            "-iter", "10");
        assertOsuMessage("-m 9:15: no power of two between MIN and MAX", "-m", "9:15");
        assertOsuMessage("-m 0:8: expected [MIN:]MAX bytes, 1 <= MIN <= MAX <= 1073741824", "-m", "0:8");
        assertOsuMessage("-i 0: need at least 1", "-i", "0");
        assertOsuMessage("-x -1: need at least 0", "-x", "-1");
        assertOsuMessage("-f (OSU's min/max/average columns) is not offered: osu_latency's row is rank 0's time", "-f");
        assertMessage("-m is OSU's; the IMB programs take -msglog a:b and -iter n (osu_latency and osu_bw take OSU's)",
            "-m", "4096");
    }

    private static void assertOsuMessage(final String expected, final String... args)
    {
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
            () -> BenchOptions.parse(args, BenchOptions.Style.OSU)).getMessage());
    }

    @Test
    void resultFilesAreCheckedAsThePlotIs(@TempDir final Path dir)
    {
        final BenchOptions o = BenchOptions.parse(new String[] {"--csv", dir.resolve("r.csv").toString(),
            "--json", dir.resolve("r.json").toString()});
        assertEquals(dir.resolve("r.csv"), o.csv());
        assertEquals(dir.resolve("r.json"), o.json());
        assertMessage("--csv /nonexistent/dir/r.csv: no directory /nonexistent/dir", "--csv", "/nonexistent/dir/r.csv");
        assertMessage("--json needs a value", "--json");
    }

    @Test
    void aPlotNeedsNoBaseline(@TempDir final Path dir)
    {
        final BenchOptions o = BenchOptions.parse(new String[] {"--plot", dir.resolve("x.png").toString()});
        assertEquals(dir.resolve("x.png"), o.plot());
        assertTrue(!o.hasBaseline() && !o.help());
    }

    @Test
    void helpIsAskedForWhateverElseIsGiven()
    {
        assertTrue(BenchOptions.parse(new String[] {"-msglog", "3", "--help"}).help());
        assertTrue(BenchOptions.parse(new String[] {"--bogus", "-h"}).help());
        assertTrue(BenchOptions.help("PingPing").startsWith("usage: bin/pinmx-run -np N PingPing [ARGUMENTS]\n"));
    }

    private static void assertMessage(final String expected, final String... args)
    {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(args)).getMessage());
    }
}
