package io.pinmx.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a person reads after a run with baselines: one table, a row per size, the measured transport's time and each
 * baseline's time with the ratio of the two beside it, then the headline ratios, in {@link Ratio}'s line form, that
 * the READMEs and issues quote. Every size's ratios go to {@code --json}, not to this output. A benchmark that reports
 * no times (OSU bandwidth) is compared by bandwidth instead.
 */
final class ComparisonTable
{
    /** The latency headline's size: the smallest message that carries data on every transport's fast path. */
    static final long HEADLINE_LATENCY_BYTES = 8;
    private static final int MIN_COLUMN_WIDTH = 12;

    private ComparisonTable()
    {
    }

    /**
     * @param transport the measured transport's name.
     * @param measured  its rows.
     * @param baselines each baseline's rows, in the order they ran.
     * @return the table's lines: two comment lines, the column header, then one row per measured size.
     */
    static List<String> lines(final String transport, final List<Measurement> measured,
        final Map<String, List<Measurement>> baselines)
    {
        final boolean byTime = measured.stream().anyMatch(m -> Double.isFinite(m.latencyUsec()));
        final List<String> lines = new ArrayList<>();
        lines.add(byTime ?
            "# same-run comparison: t[usec] of each transport, and " + transport + "'s time over the baseline's " +
                "(below 1 favours " + transport + "; bandwidth ratios are the inverse)" :
            "# same-run comparison: Mbytes/sec of each transport, and " + transport + "'s over the baseline's " +
                "(above 1 favours " + transport + ")");
        lines.add("# every size's latency and bandwidth ratios: --json FILE");
        final List<String> headers = new ArrayList<>(List.of("#bytes", transport));
        baselines.keySet().forEach(name -> headers.addAll(List.of(name, transport + "/" + name)));
        final StringBuilder header = new StringBuilder();
        for (final String h : headers)
        {
            header.append(cell(h, h));
        }
        lines.add(header.toString());
        for (final Measurement m : measured)
        {
            final StringBuilder row = new StringBuilder(cell(Long.toString(m.bytes()), headers.get(0)));
            row.append(cell(value(m, byTime), headers.get(1)));
            int column = 2;
            for (final List<Measurement> baseline : baselines.values())
            {
                final Measurement b = baseline.stream().filter(x -> x.bytes() == m.bytes()).findFirst().orElse(null);
                row.append(cell(null == b ? "-" : value(b, byTime), headers.get(column++)));
                row.append(cell(null == b ? "-" : ratio(m, b, byTime), headers.get(column++)));
            }
            lines.add(row.toString());
        }
        return lines;
    }

    /**
     * @param all      every ratio of the run, as {@link BenchmarkRun#ratios} gives them per baseline.
     * @param measured the measured transport's rows.
     * @return against each baseline, the latency ratio at {@value #HEADLINE_LATENCY_BYTES} B (else at the smallest
     *         size measured) and the bandwidth ratio at the largest size measured, in the order of {@code all}.
     */
    static List<Ratio> headline(final List<Ratio> all, final List<Measurement> measured)
    {
        if (measured.isEmpty())
        {
            return List.of();
        }
        final long latencyBytes = measured.stream().anyMatch(m -> HEADLINE_LATENCY_BYTES == m.bytes()) ?
            HEADLINE_LATENCY_BYTES : measured.getFirst().bytes();
        final long bandwidthBytes = measured.getLast().bytes();
        return all.stream().filter(r -> Ratio.LATENCY.equals(r.metric()) ? latencyBytes == r.bytes() :
            bandwidthBytes == r.bytes() && bandwidthBytes != latencyBytes).toList();
    }

    private static String value(final Measurement m, final boolean byTime)
    {
        final double v = byTime ? m.latencyUsec() : m.mbytesPerSec();
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "-";
    }

    private static String ratio(final Measurement m, final Measurement b, final boolean byTime)
    {
        final double mine = byTime ? m.latencyUsec() : m.mbytesPerSec();
        final double theirs = byTime ? b.latencyUsec() : b.mbytesPerSec();
        return Ratio.defined(mine, theirs) ? Ratio.digits(mine / theirs) : "-";
    }

    private static String cell(final String text, final String header)
    {
        return String.format(Locale.ROOT, "%" + Math.max(MIN_COLUMN_WIDTH, header.length() + 2) + "s", text);
    }
}
