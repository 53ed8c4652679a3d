package io.pinmx.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A same-run ratio in the one form scripts read: {@code ratio latency 8 B pinmx/tcp = 0.42}, with two
 * significant digits. Latency ratios below 1 and bandwidth ratios above 1 favour the first transport.
 */
public record Ratio(String metric, long bytes, String measured, String baseline, double value)
{
    public static final String LATENCY = "latency";
    public static final String BANDWIDTH = "bandwidth";
    private static final MathContext TWO_DIGITS = new MathContext(2);
    private static final Pattern LINE = Pattern.compile("^ratio (latency|bandwidth) (\\d+) B (\\S+)/(\\S+) = (\\S+)$");

    public String line()
    {
        return String.format(Locale.ROOT, "ratio %s %d B %s/%s = %s", metric, bytes, measured, baseline, digits(value));
    }

    /**
     * @return the ratio on a line, or null if the line is not one.
     */
    public static Ratio parse(final String line)
    {
        final Matcher m = LINE.matcher(line);
        if (!m.matches())
        {
            return null;
        }
        return new Ratio(m.group(1), Long.parseLong(m.group(2)), m.group(3), m.group(4), Double.parseDouble(m.group(5)));
    }

    /**
     * @return true if both values are finite and positive, so that their ratio means something.
     */
    public static boolean defined(final double measured, final double baseline)
    {
        return Double.isFinite(measured) && Double.isFinite(baseline) && measured > 0 && baseline > 0;
    }

    static String digits(final double value)
    {
        return new BigDecimal(value).round(TWO_DIGITS).stripTrailingZeros().toPlainString();
    }
}
