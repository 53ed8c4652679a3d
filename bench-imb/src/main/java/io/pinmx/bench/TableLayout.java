package io.pinmx.bench;

import java.util.Locale;

/**
 * The table formats: IMB's (MB = 10^6 bytes) with one time column or with t_min, t_max and t_avg, and
 * OSU's latency and bandwidth tables. Each formats its header and lines and parses lines back.
 */
public enum TableLayout
{
    IMB_TIME(4, String.format(Locale.ROOT, "%12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec")),
    IMB_MIN_MAX_AVG(6, String.format(Locale.ROOT, "%12s %12s %12s %12s %12s %12s",
        "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec")),
    OSU_LATENCY(2, String.format(Locale.ROOT, "%-10s%18s", "# Size", "Latency (us)")),
    OSU_BANDWIDTH(2, String.format(Locale.ROOT, "%-10s%18s", "# Size", "Bandwidth (MB/s)"));

    private final int columns;
    private final String header;

    TableLayout(final int columns, final String header)
    {
        this.columns = columns;
        this.header = header;
    }

    public String header()
    {
        return header;
    }

    public String format(final Measurement m)
    {
        return switch (this)
        {
            case IMB_TIME -> String.format(Locale.ROOT, "%12d %12d %12.2f %12.2f",
                m.bytes(), m.repetitions(), m.tAvgUsec(), m.mbytesPerSec());
            case IMB_MIN_MAX_AVG -> String.format(Locale.ROOT, "%12d %12d %12.2f %12.2f %12.2f %12.2f",
                m.bytes(), m.repetitions(), m.tMinUsec(), m.tMaxUsec(), m.tAvgUsec(), m.mbytesPerSec());
            case OSU_LATENCY -> String.format(Locale.ROOT, "%-10d%18.2f", m.bytes(), m.tAvgUsec());
            case OSU_BANDWIDTH -> String.format(Locale.ROOT, "%-10d%18.2f", m.bytes(), m.mbytesPerSec());
        };
    }

    /**
     * @return the measurement on a table line, or null for a line that is not one (headers, comments,
     *         ratio lines). OSU lines carry no repetition count: it parses as 0.
     */
    public Measurement parse(final String line)
    {
        final String trimmed = line.trim();
        if (trimmed.isEmpty() || trimmed.startsWith("#"))
        {
            return null;
        }
        final String[] f = trimmed.split("\\s+");
        if (f.length != columns)
        {
            return null;
        }
        try
        {
            final long bytes = Long.parseLong(f[0]);
            return switch (this)
            {
                case IMB_TIME -> Measurement.ofTime(bytes, Integer.parseInt(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]));
                case IMB_MIN_MAX_AVG -> new Measurement(bytes, Integer.parseInt(f[1]), Double.parseDouble(f[2]),
                    Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]));
                case OSU_LATENCY -> Measurement.ofTime(bytes, 0, Double.parseDouble(f[1]), Double.NaN);
                case OSU_BANDWIDTH -> Measurement.ofTime(bytes, 0, Double.NaN, Double.parseDouble(f[1]));
            };
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }
}
