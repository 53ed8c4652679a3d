package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
