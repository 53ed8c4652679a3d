package io.pinmx.bench.osc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The parser on the C baseline's output (a recorded run, and a fresh one where mpicc and ARMCI-MPI are installed),
 * the side-by-side table with its ratio column, the plots, and malformed input refused by line.
 */
class OscCompareTest
{
    private static final Path C_SOURCE = Path.of("..", "rma", "bench", "armci_osc.c");
    private static final Path ARMCI_HEADER = Path.of("/usr/include/armci.h");

    @TempDir
    Path dir;

    @Test
    void theRecordedCOutputParsesIntoEveryProgram() throws IOException
    {
        final OscTable c = OscTable.parse(recordedC());
        for (final OscProgram p : OscProgram.values())
        {
            final OscTable.Section section = c.section(p);
            assertNotNull(section, p.osuName());
            assertEquals("C ARMCI-MPI over Open MPI", section.implementation());
            OscBenchTest.checkRows(section, p.osuName());
        }
        assertEquals(List.of("N", "GetS(us)", "Get*N(us)", "PutS(us)", "Put*N(us)", "AccS(us)", "Acc*N(us)"),
            c.section(OscProgram.ARMCI_STRIDED).columns());
    }

    @Test
    void aFreshCRunParses() throws Exception
    {
        assumeTrue(Files.exists(ARMCI_HEADER) && onPath("mpicc") && onPath("mpirun"),
            "needs libarmci-mpi-dev, libopenmpi-dev and openmpi-bin (rma/bench/run.sh installs them as root)");
        final Path binary = dir.resolve("armci_osc");
        exec(List.of("mpicc", "-O2", "-o", binary.toString(), C_SOURCE.toString(), "-larmci-openmpi"));
        final List<String> command = new ArrayList<>(List.of("mpirun", "-np", "2"));
        if ("root".equals(System.getProperty("user.name")))
        {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of(binary.toString(), "all", "-m", "64", "-d", "1000", "-n", "16", "-w", "50", "-l", "2"));
        final OscTable c = OscTable.parse(exec(command).lines().toList());
        for (final OscProgram p : OscProgram.values())
        {
            OscBenchTest.checkRows(c.section(p), p.osuName());
        }
        for (final OscTable.Row row : c.section(OscProgram.COMPUTE_WINDOW).rows())
        {
            assertEquals(1000, row.values()[0], 0);
        }
    }

    @Test
    void javaRowsStandNextToCRowsWithTheRatio() throws IOException
    {
        final List<String> java = recordedC().stream()
            .map(line -> line.replace("C ARMCI-MPI over Open MPI", "pinmx rma (Java), SHARED_MEMORY tier"))
            .map(line -> line.equals("8                      0.082") ? "8                      0.041" : line)
            .toList();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OscCompare.print(OscTable.parse(java), OscTable.parse(recordedC()), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.contains("# OSU-style ARMCI Put Latency Test: pinmx = pinmx rma (Java), SHARED_MEMORY tier; " +
            "C = C ARMCI-MPI over Open MPI"), String.join("\n", lines));
        assertTrue(lines.contains("# Size          Latency (us) pinmx        Latency (us) C         ratio"),
            String.join("\n", lines));
        final String eight = lines.stream().filter(l -> l.startsWith("  8 ")).findFirst().orElseThrow();
        assertEquals(List.of("8", "0.041", "0.082", "0.50"), List.of(eight.strip().split("\\s+")));
        final String computed = lines.stream().filter(l -> l.startsWith("  put ")).findFirst().orElseThrow();
        assertEquals("1.0", computed.strip().split("\\s+")[6], computed);
        assertEquals("-", OscCompare.ratio(5, 0));
        final List<Path> plots = OscCompare.plot(OscTable.parse(java), OscTable.parse(recordedC()),
            dir.resolve("shm").toString());
        assertEquals(List.of("shm-put.png", "shm-get.png", "shm-acc.png", "shm-strided.png"),
            plots.stream().map(p -> p.getFileName().toString()).toList());
        for (final Path png : plots)
        {
            final byte[] head = Files.readAllBytes(png);
            assertTrue(head.length > 8 && 'P' == head[1] && 'N' == head[2] && 'G' == head[3], png.toString());
        }
    }

    @Test
    void roundsCompareTheirMediansAndShowTheRangeOfEachRoundsRatio() throws IOException
    {
        final List<OscTable> java = List.of(putAt8("0.041", true), putAt8("0.020", true), putAt8("0.090", true));
        final List<OscTable> c = List.of(putAt8("0.082", false), putAt8("0.082", false), putAt8("0.164", false));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OscCompare.print(java, c, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.getFirst().startsWith("# 3 rounds, each side in turn"), lines.getFirst());
        assertTrue(lines.contains("# Size          Latency (us) pinmx        Latency (us) C         ratio        rounds"),
            String.join("\n", lines));
        final String eight = lines.stream().filter(l -> l.startsWith("  8 ")).findFirst().orElseThrow();
        // medians 0.041 against 0.082; the rounds' own ratios 0.50, 0.24 and 0.55
        assertEquals(List.of("8", "0.041", "0.082", "0.50", "0.24-0.55"), List.of(eight.strip().split("\\s+")));

        final OscTable withoutRow = OscTable.parse(recordedC().stream()
            .filter(line -> !line.equals("8                      0.082")).toList());
        assertEquals(null, OscTable.median(List.of(OscTable.parse(recordedC()), withoutRow))
            .section(OscProgram.OSU_PUT_LATENCY).row("8"), "a row one round lacks is left out");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscTable.median(List.of())).getMessage()
            .contains("no rounds"));
        final OscTable otherColumns = OscTable.parse(List.of("# OSU-style ARMCI Put Latency Test", "# Size  Time",
            "8  0.1"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> OscTable.median(List.of(OscTable.parse(recordedC()), otherColumns))).getMessage()
            .contains("osu_put_latency: columns [Size, Time] in one round"));
    }

    /** The recorded C output with the 8 B put latency replaced, as Java's ({@code java}) or C's. */
    private static OscTable putAt8(final String value, final boolean java) throws IOException
    {
        return OscTable.parse(recordedC().stream()
            .map(line -> java ? line.replace("C ARMCI-MPI over Open MPI", "pinmx rma (Java)") : line)
            .map(line -> line.equals("8                      0.082") ? "8                      " + value : line)
            .toList());
    }

    @Test
    void aMalformedRowIsRefusedNamingItsLine()
    {
        final List<String> lines = List.of("# OSU-style ARMCI Get Latency Test", "# Implementation: C",
            "# Synchronization: blocking get", "# Size          Latency (us)", "1   0.06", "2   fast");
        final IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class, () -> OscTable.parse(lines));
        assertTrue(notANumber.getMessage().contains("line 6 '2   fast': field 2 'fast' is not a number"),
            notANumber.getMessage());
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> OscTable.parse(List.of(lines.get(0), lines.get(3), "4 0.1 0.2")));
        assertTrue(tooMany.getMessage().contains("line 3 '4 0.1 0.2': 3 fields, the section's header names 2 columns"),
            tooMany.getMessage());
    }

    @Test
    void optionsAreCheckedByName()
    {
        assertEquals(new OscOptions(OscProgram.OSU_GET_BW, 1024, 10, 32, 500, 3),
            OscOptions.parse(new String[] {"osu_get_bw", "-m", "1024", "-d", "10", "-n", "32", "-w", "500", "-l", "3"}));
        assertEquals(new OscOptions(null, 4L << 20, 1, 256, 2000, 5), OscOptions.parse(new String[] {"all"}));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(new String[0]))
            .getMessage().startsWith("no PROGRAM given"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(new String[] {"all", "-m"}))
            .getMessage().startsWith("-m needs a value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(new String[] {"all", "-d", "x"}))
            .getMessage().startsWith("-d x: not a whole number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(new String[] {"all", "-m", "4"}))
            .getMessage().contains("expected -m >= 8"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(new String[] {"all", "-l", "16"}))
            .getMessage().contains("-l 1..15"));
        assertEquals(new OscOptions(OscProgram.OSU_PUT_LATENCY, 1024, 1, 256, 2000, 5, 16, 200, 20, false),
            OscOptions.parse(new String[] {"osu_put_latency", "-m", "16:1024", "-i", "200", "-x", "20"}));
        assertEquals(3.0, OscOptions.median(new double[] {9, 1, 3}), 0);
        assertEquals(5.0, OscOptions.median(new double[] {5, 1, 3, 7}), 0);
    }

    /** What a user of OSU or IMB types first: help, and the other suite's options, each named in one line. */
    @Test
    void helpAndTheOtherSuitesOptionsAreAnsweredByName()
    {
        assertTrue(OscOptions.parse(new String[] {"osu_put_latency", "--help"}).help());
        assertTrue(OscOptions.parse(new String[] {"--help"}).help());
        assertTrue(OscOptions.parse(new String[] {"osu_put_latency", "-m", "x", "-h"}).help());
        assertTrue(OscOptions.help("osu_put_latency").startsWith("usage: bin/pinmx-run -np 2 osu_put_latency [-m "));
        assertOneLine("-msglog is IMB's; the one-sided programs take OSU's -m [MIN:]MAX (bytes)",
            "osu_put_latency", "-msglog", "0:10");
        assertOneLine("-iter is IMB's; the one-sided programs take OSU's -i ITERATIONS and -x WARMUP",
            "osu_put_latency", "-iter", "100");
        assertOneLine("--plot is an option of the two-sided programs (PingPong, osu_latency...), not of osu_put_bw; " +
            "rma/bench's OscCompare sets its tables against C and plots them", "osu_put_bw", "--plot", "x.png");
        assertOneLine("-m 1:2:3: expected MAX or MIN:MAX bytes", "all", "-m", "1:2:3");
        assertOneLine("-m 64:16: expected 1 <= MIN <= MAX (bytes)", "all", "-m", "64:16", "-l", "3");
        assertOneLine("-i 0: expected at least 1", "all", "-i", "0");
        assertOneLine("-x needs a value", "all", "-x", "-m", "64");
        assertOneLine("-f (OSU's min/max/average columns) is not offered: each row is the median of -l timed loops",
            "all", "-f");
        assertOneLine("unknown option '-q'", "all", "-q");
    }

    private static void assertOneLine(final String expected, final String... args)
    {
        final String message = assertThrows(IllegalArgumentException.class, () -> OscOptions.parse(args)).getMessage();
        assertEquals(expected, message);
    }

    private static List<String> recordedC() throws IOException
    {
        try (InputStream in = OscCompareTest.class.getResourceAsStream("armci-osc-shm.txt"))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private static boolean onPath(final String command)
    {
        for (final String d : System.getenv().getOrDefault("PATH", "").split(":"))
        {
            if (Files.isExecutable(Path.of(d, command)))
            {
                return true;
            }
        }
        return false;
    }

    private String exec(final List<String> command) throws Exception
    {
        final Path log = dir.resolve("exec.log");
        final Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + Files.readString(log));
        return out;
    }
}
