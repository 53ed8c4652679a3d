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
