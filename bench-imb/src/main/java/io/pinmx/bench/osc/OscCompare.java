package io.pinmx.bench.osc;

import io.pinmx.bench.Measurement;
import io.pinmx.bench.ResultPlot;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Puts the Java programs' output next to the C baseline's of the same run: per program, each row's value of both and
 * the ratio Java/C (latency: below 1 is faster; bandwidth and completed operations: above 1 is more), and PNG plots
 * of latency and bandwidth, Java against C.
 * <p>
 * Run: {@code OscCompare JAVA_OUTPUT C_OUTPUT [PLOT_PREFIX]}; plots go to {@code PLOT_PREFIX-put.png},
 * {@code -get.png}, {@code -acc.png}, {@code -strided.png}. With rounds (each side run several times, alternating,
 * so that both see the same changes of the host), each output is a comma-separated list of the rounds' files in
 * order: each value is then the median of the rounds, and a column beside each ratio gives the lowest and highest of
 * the rounds' own ratios (round k of Java against round k of C, which ran next to each other).
 */
public final class OscCompare
{
    static final String JAVA = "pinmx";
    static final String C = "ARMCI-MPI";

    private OscCompare()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length < 2 || args.length > 3)
        {
            System.err.println("usage: OscCompare JAVA_OUTPUT C_OUTPUT [PLOT_PREFIX]");
            System.exit(2);
        }
        final List<OscTable> javaRounds = readRounds(args[0]);
        final List<OscTable> cRounds = readRounds(args[1]);
        if (javaRounds.size() != cRounds.size())
        {
            System.err.println("OscCompare: " + javaRounds.size() + " Java rounds but " + cRounds.size() + " C rounds");
            System.exit(2);
        }
        final OscTable java = OscTable.median(javaRounds);
        final OscTable c = OscTable.median(cRounds);
        print(java, c, javaRounds, cRounds, System.out);
        if (3 == args.length)
        {
            for (final Path png : plot(java, c, args[2]))
            {
                System.out.println("# plot: " + png);
            }
        }
    }

    private static List<OscTable> readRounds(final String files)
    {
        final List<OscTable> rounds = new ArrayList<>();
        for (final String file : files.split(","))
        {
            rounds.add(read(Path.of(file)));
        }
        return rounds;
    }

    static OscTable read(final Path file)
    {
        try
        {
            return OscTable.parse(Files.readAllLines(file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
        }
    }

    /** Prints every program both outputs have, row by row where both have the key. */
    static void print(final OscTable java, final OscTable c, final PrintStream out)
    {
        print(List.of(java), List.of(c), out);
    }

    /**
     * As {@link #print(OscTable, OscTable, PrintStream)} for the medians of rounds (round k of each side ran next to
     * each other), with the range of the rounds' ratios beside each ratio when there is more than one round.
     */
    static void print(final List<OscTable> javaRounds, final List<OscTable> cRounds, final PrintStream out)
    {
        print(OscTable.median(javaRounds), OscTable.median(cRounds), javaRounds, cRounds, out);
    }

    /** {@code java} and {@code c} are the medians of the rounds. */
    private static void print(
        final OscTable java, final OscTable c, final List<OscTable> javaRounds, final List<OscTable> cRounds,
        final PrintStream out)
    {
        final boolean rounds = javaRounds.size() > 1;
        if (rounds)
        {
            out.println("# " + javaRounds.size() + " rounds, each side in turn: each value the median of the " +
                "rounds; 'rounds' = the lowest and highest ratio of a round's Java against the same round's C");
        }
        for (final OscProgram p : OscProgram.values())
        {
            final OscTable.Section j = java.section(p);
            final OscTable.Section k = c.section(p);
            if (null == j || null == k)
            {
                continue;
            }
            out.println("# " + p.title() + ": " + JAVA + " = " + j.implementation() + "; C = " + k.implementation());
            final StringBuilder header = new StringBuilder(String.format("# %-10s", j.columns().get(0)));
            for (int col = 1; col < j.columns().size(); col++)
            {
                final String name = j.columns().get(col);
                header.append(String.format("%22s%22s%14s", name + " " + JAVA, name + " C", "ratio"));
                if (rounds)
                {
                    header.append(String.format("%14s", "rounds"));
                }
            }
            out.println(header);
            for (final OscTable.Row row : j.rows())
            {
                final OscTable.Row base = k.row(row.key());
                if (null == base)
                {
                    continue;
                }
                final StringBuilder line = new StringBuilder(String.format("  %-10s", row.key()));
                for (int v = 0; v < row.values().length; v++)
                {
                    line.append(String.format("%22.3f%22.3f%14s", row.values()[v], base.values()[v],
                        ratio(row.values()[v], base.values()[v])));
                    if (rounds)
                    {
                        line.append(String.format("%14s", roundRatios(javaRounds, cRounds, p, row.key(), v)));
                    }
                }
                out.println(line);
            }
        }
        out.flush();
    }

    /** @return "LOW-HIGH" of the rounds' Java/C for one value, or "-" when a round lacks it or C measured 0. */
    private static String roundRatios(final List<OscTable> javaRounds, final List<OscTable> cRounds,
        final OscProgram program, final String key, final int column)
    {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < javaRounds.size(); r++)
        {
            final OscTable.Row mine = javaRounds.get(r).section(program).row(key);
            final OscTable.Row theirs = cRounds.get(r).section(program).row(key);
            if (null == mine || null == theirs || 0 == theirs.values()[column])
            {
                return "-";
            }
            final double ratio = mine.values()[column] / theirs.values()[column];
            low = Math.min(low, ratio);
            high = Math.max(high, ratio);
        }
        return String.format("%.2g-%.2g", low, high);
    }

    /** @return Java/C with two significant digits, or "-" when C measured 0. */
    static String ratio(final double java, final double c)
    {
        return 0 == c ? "-" : String.format("%.2g", java / c);
    }

    static List<Path> plot(final OscTable java, final OscTable c, final String prefix)
    {
        final List<Path> written = new ArrayList<>();
        plotPair(java, c, OscProgram.OSU_PUT_LATENCY, OscProgram.OSU_PUT_BW, Path.of(prefix + "-put.png"), written);
        plotPair(java, c, OscProgram.OSU_GET_LATENCY, OscProgram.OSU_GET_BW, Path.of(prefix + "-get.png"), written);
        plotPair(java, c, OscProgram.OSU_ACC_LATENCY, null, Path.of(prefix + "-acc.png"), written);
        final OscTable.Section j = java.section(OscProgram.ARMCI_STRIDED);
        final OscTable.Section k = c.section(OscProgram.ARMCI_STRIDED);
        if (null != j && null != k)
        {
            final Path file = Path.of(prefix + "-strided.png");
            ResultPlot.write(file, "strided N x N doubles (x: N*N*8 bytes), GetS", JAVA + " GetS", strided(j, 0),
                Map.of(C + " GetS", strided(k, 0), JAVA + " PutS", strided(j, 2), C + " PutS", strided(k, 2)));
            written.add(file);
        }
        return written;
    }

    private static void plotPair(final OscTable java, final OscTable c, final OscProgram latency,
        final OscProgram bandwidth, final Path file, final List<Path> written)
    {
        final List<Measurement> mine = measurements(java, latency, bandwidth);
        final List<Measurement> theirs = measurements(c, latency, bandwidth);
        if (!mine.isEmpty() && !theirs.isEmpty())
        {
            ResultPlot.write(file, latency.osuName().replace("_latency", ""), JAVA, mine, Map.of(C, theirs));
            written.add(file);
        }
    }

    /** Latency rows as times, bandwidth rows as MB/s, each with the other value undefined. */
    private static List<Measurement> measurements(final OscTable table, final OscProgram latency,
        final OscProgram bandwidth)
    {
        final List<Measurement> list = new ArrayList<>();
        final OscTable.Section l = table.section(latency);
        if (null != l)
        {
            l.rows().forEach(r -> list.add(Measurement.ofTime(Long.parseLong(r.key()), 0, r.values()[0], Double.NaN)));
        }
        final OscTable.Section b = null == bandwidth ? null : table.section(bandwidth);
        if (null != b)
        {
            b.rows().forEach(r -> list.add(Measurement.ofTime(Long.parseLong(r.key()), 0, Double.NaN, r.values()[0])));
        }
        return list;
    }

    private static List<Measurement> strided(final OscTable.Section section, final int column)
    {
        final List<Measurement> list = new ArrayList<>();
        for (final OscTable.Row r : section.rows())
        {
            final long n = Long.parseLong(r.key());
            list.add(Measurement.ofTime(n * n * Double.BYTES, 0, r.values()[column], Double.NaN));
        }
        return list;
    }
}
