package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The table a person reads (a row per size, each baseline's time and ratio beside) and the headline ratios. */
class ComparisonTableTest
{
    private static final List<Measurement> PINMX = List.of(
        Measurement.ofTime(0, 1000, 0.5, 0.0), Measurement.ofTime(8, 1000, 0.5, 16.0),
        Measurement.ofTime(4194304, 10, 600.0, 6990.5));

    @Test
    void aRowPerSizeWithEachBaselinesTimeAndRatio()
    {
        final Map<String, List<Measurement>> baselines = new LinkedHashMap<>();
        baselines.put("tcp", List.of(Measurement.ofTime(0, 1000, 2.5, 0.0), Measurement.ofTime(8, 1000, 2.0, 4.0),
            Measurement.ofTime(4194304, 10, 1800.0, 2330.2)));
        // A baseline that did not measure 4 MiB (Aeron's message limit, say) leaves its cells empty.
        baselines.put("tcp-busy", List.of(Measurement.ofTime(0, 1000, 10.0, 0.0), Measurement.ofTime(8, 1000, 0.0, 0.0)));
        assertEquals(List.of(
            "# same-run comparison: t[usec] of each transport, and pinmx's time over the baseline's (below 1 favours " +
                "pinmx; bandwidth ratios are the inverse)",
            "# every size's latency and bandwidth ratios: --json FILE",
            "      #bytes       pinmx         tcp   pinmx/tcp    tcp-busy  pinmx/tcp-busy",
            "           0        0.50        2.50         0.2       10.00            0.05",
            "           8        0.50        2.00        0.25        0.00               -",
            "     4194304      600.00     1800.00        0.33           -               -"),
            ComparisonTable.lines("pinmx", PINMX, baselines));
    }

    @Test
    void aBenchmarkWithoutTimesIsComparedByBandwidth()
    {
        final List<Measurement> bw = List.of(Measurement.ofTime(8, 0, Double.NaN, 40.0));
        final List<String> lines = ComparisonTable.lines("pinmx", bw,
            Map.of("tcp", List.of(Measurement.ofTime(8, 0, Double.NaN, 10.0))));
        assertEquals("# same-run comparison: Mbytes/sec of each transport, and pinmx's over the baseline's (above 1 " +
            "favours pinmx)", lines.get(0));
        assertEquals("           8       40.00       10.00           4", lines.get(3));
    }

    @Test
    void theHeadlineIs8BytesLatencyAndTheLargestSizesBandwidthPerBaseline()
    {
        final List<Measurement> tcp = List.of(Measurement.ofTime(0, 1000, 2.5, 0.0), Measurement.ofTime(8, 1000, 2.0, 4.0),
            Measurement.ofTime(4194304, 10, 1800.0, 2330.2));
        final List<Ratio> all = new ArrayList<>(BenchmarkRun.ratios("pinmx", PINMX, "tcp", tcp));
        all.addAll(BenchmarkRun.ratios("pinmx", PINMX, "aeron", tcp));
        assertEquals(List.of(
            "ratio latency 8 B pinmx/tcp = 0.25",
            "ratio bandwidth 4194304 B pinmx/tcp = 3",
            "ratio latency 8 B pinmx/aeron = 0.25",
            "ratio bandwidth 4194304 B pinmx/aeron = 3"),
            ComparisonTable.headline(all, PINMX).stream().map(Ratio::line).toList());
        // Without an 8 B row: the smallest size's latency; one size only: no bandwidth line beside it.
        final List<Measurement> one = List.of(Measurement.ofTime(64, 10, 1.0, 64.0));
        assertEquals(List.of("ratio latency 64 B pinmx/tcp = 0.5"), ComparisonTable.headline(
            BenchmarkRun.ratios("pinmx", one, "tcp", List.of(Measurement.ofTime(64, 10, 2.0, 32.0))), one).stream()
            .map(Ratio::line).toList());
    }
}
