package io.pinmx.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's results for scripts ({@code --csv FILE}, {@code --json FILE}): every row of the measured transport and of
 * each baseline, and (JSON) the same-run ratios. Values a benchmark does not report (NaN) are empty in CSV and null in JSON.
 */
final class ResultFiles
{
    static final String CSV_HEADER = "benchmark,role,transport,bytes,repetitions,t_min_usec,t_max_usec,t_avg_usec," +
        "mbytes_per_sec";

    private ResultFiles()
    {
    }

    /**
     * @param baselines each baseline's rows, in the order they ran (before the measured transport).
     */
    static String csv(final String benchmark, final Map<String, List<Measurement>> baselines, final String transport,
        final List<Measurement> measured)
    {
        final StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
        baselines.forEach((name, rows) -> csvRows(out, benchmark, "baseline", name, rows));
        csvRows(out, benchmark, "measured", transport, measured);
        return out.toString();
    }

    private static void csvRows(final StringBuilder out, final String benchmark, final String role,
        final String transport, final List<Measurement> rows)
    {
        for (final Measurement m : rows)
        {
            out.append(benchmark).append(',').append(role).append(',').append(transport).append(',').append(m.bytes())
                .append(',').append(m.repetitions()).append(',').append(number(m.tMinUsec(), "")).append(',')
                .append(number(m.tMaxUsec(), "")).append(',').append(number(m.tAvgUsec(), "")).append(',')
                .append(number(m.mbytesPerSec(), "")).append('\n');
        }
    }

    static String json(final String benchmark, final int processes, final Map<String, List<Measurement>> baselines,
        final String transport, final List<Measurement> measured, final List<Ratio> ratios)
    {
        final StringBuilder out = new StringBuilder("{\"benchmark\":\"").append(benchmark)
            .append("\",\"processes\":").append(processes).append(",\"measured\":");
        jsonRun(out, transport, measured);
        out.append(",\"baselines\":[");
        String comma = "";
        for (final Map.Entry<String, List<Measurement>> run : baselines.entrySet())
        {
            out.append(comma);
            jsonRun(out, run.getKey(), run.getValue());
            comma = ",";
        }
        out.append("],\"ratios\":[");
        comma = "";
        for (final Ratio r : ratios)
        {
            out.append(comma).append("{\"metric\":\"").append(r.metric()).append("\",\"bytes\":").append(r.bytes())
                .append(",\"measured\":\"").append(r.measured()).append("\",\"baseline\":\"").append(r.baseline())
                .append("\",\"value\":").append(number(r.value(), "null")).append('}');
            comma = ",";
        }
        return out.append("]}\n").toString();
    }

    private static void jsonRun(final StringBuilder out, final String transport, final List<Measurement> rows)
    {
        out.append("{\"transport\":\"").append(transport).append("\",\"rows\":[");
        String comma = "";
        for (final Measurement m : rows)
        {
            out.append(comma).append("{\"bytes\":").append(m.bytes()).append(",\"repetitions\":")
                .append(m.repetitions()).append(",\"tMinUsec\":").append(number(m.tMinUsec(), "null"))
                .append(",\"tMaxUsec\":").append(number(m.tMaxUsec(), "null")).append(",\"tAvgUsec\":")
                .append(number(m.tAvgUsec(), "null")).append(",\"mbytesPerSec\":")
                .append(number(m.mbytesPerSec(), "null")).append('}');
            comma = ",";
        }
        out.append("]}");
    }

    static void write(final Path file, final String text)
    {
        try
        {
            Files.writeString(file, text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }

    private static String number(final double value, final String missing)
    {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : missing;
    }
}
