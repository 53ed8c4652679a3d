package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitWarmUpTest
{
    @Test
    void passRepetitionsMoveAboutTheSameVolumePerSizeWithinBounds()
    {
        assertEquals(JitWarmUp.PASS_MAX_REPETITIONS, JitWarmUp.passRepetitions(0));
        assertEquals(JitWarmUp.PASS_MAX_REPETITIONS, JitWarmUp.passRepetitions(8));
        assertEquals(128, JitWarmUp.passRepetitions(65536));
        assertEquals(2, JitWarmUp.passRepetitions(4 << 20));
        assertEquals(1, JitWarmUp.passRepetitions(64 << 20));
    }

    @Test
    void compilerThreadsCpuTimeIsReadAndGrowsWhileTheJitWorks()
    {
        final long before = JitWarmUp.compilerCpuNs();
        assertTrue(before > 0, "this JVM's C1/C2 compiler threads have run: " + before + " ns");
        long sink = 0;
        for (int i = 0; i < 200_000; i++)
        {
            sink += Integer.toString(i).hashCode();
        }
        assertTrue(JitWarmUp.compilerCpuNs() >= before, "compiler CPU time never shrinks while its threads live (" +
            sink + ")");
    }
}
