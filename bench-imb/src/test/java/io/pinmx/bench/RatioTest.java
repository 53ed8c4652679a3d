package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class RatioTest
{
    @Test
    void linesHaveTheFormScriptsReadWithTwoSignificantDigits()
    {
        assertEquals("ratio latency 8 B pinmx/tcp = 0.42", new Ratio(Ratio.LATENCY, 8, "pinmx", "tcp", 0.4213).line());
        assertEquals("ratio bandwidth 4194304 B pinmx/tcp = 3.1",
            new Ratio(Ratio.BANDWIDTH, 4194304, "pinmx", "tcp", 3.14159).line());
        assertEquals("ratio bandwidth 4194304 B pinmx/memcpy = 0.071",
            new Ratio(Ratio.BANDWIDTH, 4194304, "pinmx", "memcpy", 0.07149).line());
        assertEquals("ratio latency 0 B pinmx/tcp = 12", new Ratio(Ratio.LATENCY, 0, "pinmx", "tcp", 12.4).line());
    }

    @Test
    void linesParseBack()
    {
        final Ratio r = Ratio.parse("ratio bandwidth 4194304 B pinmx/tcp = 3.1");
        assertEquals(new Ratio(Ratio.BANDWIDTH, 4194304, "pinmx", "tcp", 3.1), r);
        assertNull(Ratio.parse("ratio latency 8 B pinmx/tcp 0.42"));
        assertNull(Ratio.parse("# ratio latency 8 B pinmx/tcp = 0.42"));
    }

    @Test
    void oneLatencyAndOneBandwidthLinePerSizeWhereBothAreDefined()
    {
        final List<Measurement> pinmx = List.of(
            Measurement.ofTime(0, 1000, 2.0, 0.0), Measurement.ofTime(8, 1000, 2.0, 4.0));
        final List<Measurement> tcp = List.of(
            Measurement.ofTime(0, 1000, 5.0, 0.0), Measurement.ofTime(8, 1000, 5.0, 1.6));
        final List<String> lines = BenchmarkRun.ratios("pinmx", pinmx, "tcp", tcp).stream().map(Ratio::line).toList();
        assertEquals(List.of(
            "ratio latency 0 B pinmx/tcp = 0.4",
            "ratio latency 8 B pinmx/tcp = 0.4",
            "ratio bandwidth 8 B pinmx/tcp = 2.5"), lines);
    }

    @Test
    void zeroNanAndInfiniteValuesAreNotRatios()
    {
        assertFalse(Ratio.defined(0, 1));
        assertFalse(Ratio.defined(1, 0));
        assertFalse(Ratio.defined(Double.NaN, 1));
        assertFalse(Ratio.defined(Double.POSITIVE_INFINITY, 1));
    }
}
