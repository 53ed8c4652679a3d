package io.pinmx.mpj.jgf;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinpackTest
{
    @Test
    void theGeneratedSystemsSolutionIsAllOnes()
    {
        final double[] ones = new double[500];
        Arrays.fill(ones, 1.0);
        assertTrue(Linpack.normalisedResidual(ones) < 1.0, "b is A times the ones vector");
    }

    @Test
    void aWrongSolutionFailsValidation()
    {
        final double[] nearlyOnes = new double[500];
        Arrays.fill(nearlyOnes, 1.0);
        nearlyOnes[17] = 1.0 + 1e-6;
        final String failure = LuFact.validate(Linpack.normalisedResidual(nearlyOnes), JgfSize.A);
        assertTrue(null != failure && failure.startsWith("normalised residual "), failure);
        assertNull(LuFact.validate(5.9, JgfSize.A));
        assertEquals("normalised residual 6.5 is above the bound 6.0", LuFact.validate(6.5, JgfSize.A));
    }
}
