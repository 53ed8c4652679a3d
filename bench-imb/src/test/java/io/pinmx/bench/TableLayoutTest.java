package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TableLayoutTest
{
    @Test
    void imbHeadersHaveImbColumnNames()
    {
        assertEquals("#bytes #repetitions t[usec] Mbytes/sec", TableLayout.IMB_TIME.header().trim().replaceAll("\\s+", " "));
        assertEquals("#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec",
            TableLayout.IMB_MIN_MAX_AVG.header().trim().replaceAll("\\s+", " "));
    }

    @Test
    void imbTimeLinesFormatWithTwoDecimalsAndParseBack()
    {
        final String line = TableLayout.IMB_TIME.format(Measurement.ofTime(4194304, 10, 1466.344, 2860.35));
        assertEquals("     4194304           10      1466.34      2860.35", line);
        final Measurement m = TableLayout.IMB_TIME.parse(line);
        assertEquals(4194304, m.bytes());
        assertEquals(10, m.repetitions());
        assertEquals(1466.34, m.latencyUsec());
        assertEquals(2860.35, m.mbytesPerSec());
    }

    @Test
    void minMaxAvgLinesKeepAllThreeTimes()
    {
        final Measurement m = TableLayout.IMB_MIN_MAX_AVG.parse(
            TableLayout.IMB_MIN_MAX_AVG.format(new Measurement(8, 1000, 1.5, 2.25, 2.0, 7.11)));
        assertEquals(new Measurement(8, 1000, 1.5, 2.25, 2.0, 7.11), m);
    }

    @Test
    void osuLinesCarrySizeAndOneValue()
    {
        final Measurement latency = TableLayout.OSU_LATENCY.parse(
            TableLayout.OSU_LATENCY.format(Measurement.ofTime(64, 10000, 3.75, Double.NaN)));
        assertEquals(64, latency.bytes());
        assertEquals(3.75, latency.latencyUsec());
        final Measurement bandwidth = TableLayout.OSU_BANDWIDTH.parse(
            TableLayout.OSU_BANDWIDTH.format(Measurement.ofTime(1048576, 20, Double.NaN, 5123.5)));
        assertEquals(5123.5, bandwidth.mbytesPerSec());
    }

    @Test
    void headersCommentsRatiosAndOtherTablesAreNotMeasurements()
    {
        assertNull(TableLayout.IMB_TIME.parse(TableLayout.IMB_TIME.header()));
        assertNull(TableLayout.IMB_TIME.parse("# Benchmarking PingPong over tcp"));
        assertNull(TableLayout.IMB_TIME.parse("ratio latency 8 B pinmx/tcp = 0.42"));
        assertNull(TableLayout.IMB_TIME.parse(""));
        assertNull(TableLayout.IMB_TIME.parse(
            TableLayout.IMB_MIN_MAX_AVG.format(new Measurement(8, 1000, 1.5, 2.25, 2.0, 7.11))));
    }
}
