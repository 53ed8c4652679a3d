package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rows and ratios scripts read, in the one layout each file has. */
class ResultFilesTest
{
    private static final List<Measurement> TCP = List.of(Measurement.ofTime(0, 1000, 12.5, Double.NaN),
        Measurement.ofTime(8, 1000, 13.25, 0.6));
    private static final List<Measurement> PINMX = List.of(new Measurement(0, 1000, 2, 3, 2.5, Double.NaN),
        new Measurement(8, 1000, 2.5, 3.5, 3, 2.286));

    @Test
    void csvHasARowPerSizeOfEachRunBaselinesFirstAndEmptyForWhatIsNotReported()
    {
        final Map<String, List<Measurement>> baselines = new LinkedHashMap<>();
        baselines.put("tcp", TCP);
        assertEquals("""
            benchmark,role,transport,bytes,repetitions,t_min_usec,t_max_usec,t_avg_usec,mbytes_per_sec
            PingPong,baseline,tcp,0,1000,12.500,12.500,12.500,
            PingPong,baseline,tcp,8,1000,13.250,13.250,13.250,0.600
            PingPong,measured,pinmx,0,1000,2.000,3.000,2.500,
            PingPong,measured,pinmx,8,1000,2.500,3.500,3.000,2.286
            """, ResultFiles.csv("PingPong", baselines, "pinmx", PINMX));
    }

    @Test
    void jsonHoldsTheRunsAndTheRatios()
    {
        final String json = ResultFiles.json("PingPong", 2, Map.of("tcp", TCP.subList(1, 2)), "pinmx",
            PINMX.subList(1, 2), List.of(new Ratio(Ratio.LATENCY, 8, "pinmx", "tcp", 0.26)));
        assertEquals("{\"benchmark\":\"PingPong\",\"processes\":2," +
            "\"measured\":{\"transport\":\"pinmx\",\"rows\":[{\"bytes\":8,\"repetitions\":1000,\"tMinUsec\":2.500," +
            "\"tMaxUsec\":3.500,\"tAvgUsec\":3.000,\"mbytesPerSec\":2.286}]}," +
            "\"baselines\":[{\"transport\":\"tcp\",\"rows\":[{\"bytes\":8,\"repetitions\":1000,\"tMinUsec\":13.250," +
            "\"tMaxUsec\":13.250,\"tAvgUsec\":13.250,\"mbytesPerSec\":0.600}]}]," +
            "\"ratios\":[{\"metric\":\"latency\",\"bytes\":8,\"measured\":\"pinmx\",\"baseline\":\"tcp\",\"value\":0.260}]}\n",
            json);
    }
}
