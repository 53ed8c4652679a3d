package io.pinmx.apps.mg;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MG in one JVM: class S reproduces NPB's published residual norm; the classes, the decomposition's refusals and the
 * report's verdict.
 */
class MgSerialTest
{
    @Test
    void classSReproducesNpbsNorm()
    {
        final MgRun run = MgRun.of(MgClass.S, new SerialTransport());
        assertEquals(MgClass.S.verificationNorm(), run.norm(), MgClass.S.verificationNorm() * MgClass.EPSILON);
        assertTrue(run.verified());
        assertTrue(run.seconds() > 0 && run.mops() > 0, run.toString());
    }

    @Test
    void aNormOffByMoreThanEpsilonFails()
    {
        final double norm = MgClass.S.verificationNorm();
        assertTrue(MgClass.S.verifies(norm * (1 + 0.5 * MgClass.EPSILON)));
        assertFalse(MgClass.S.verifies(norm * (1 + 2 * MgClass.EPSILON)));
        assertFalse(MgClass.W.verifies(norm));
    }

    @Test
    void reportSaysUnsuccessfulForAWrongNorm()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        MgReport.print(out, new MgRun(MgClass.S, 2, 1.0e-3, 0.5, 0.1), "test");
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(" Verification    =             UNSUCCESSFUL"), text);
        assertTrue(text.contains(" Class           =                        S"), text);
        assertTrue(text.contains(" Total processes =                        2"), text);
    }

    @Test
    void classesAreNpbs()
    {
        assertEquals(32, MgClass.named("S").points());
        assertEquals(128, MgClass.named("W").points());
        assertEquals(256, MgClass.named("A").points());
        assertEquals(4, MgClass.A.iterations());
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> MgClass.named("B"));
        assertEquals("NPB MG class 'B' is not one of S, W, A", bad.getMessage());
    }

    @Test
    void slabsRefuseRankCountsTheyCannotCut()
    {
        final IllegalArgumentException three = assertThrows(IllegalArgumentException.class,
            () -> new SlabLevels(MgClass.S, 3, 0));
        assertTrue(three.getMessage().contains("power-of-two number of ranks, not 3"), three.getMessage());
        final IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
            () -> new SlabLevels(MgClass.S, 32, 0));
        assertTrue(many.getMessage().contains("at most 16 ranks"), many.getMessage());
        final SlabLevels sixteen = new SlabLevels(MgClass.S, 16, 15);
        assertFalse(sixteen.heldWhole(5));
        assertTrue(sixteen.heldWhole(4));
        final Grid slab = sixteen.grid(5);
        assertEquals(2, slab.planes);
        assertEquals(30, slab.firstPlane);
    }

    @Test
    void oneRankHoldsEveryLevelAsItsOwnSlab()
    {
        final SlabLevels one = new SlabLevels(MgClass.S, 1, 0);
        for (int k = 1; k <= MgClass.S.finestLevel(); k++)
        {
            assertFalse(one.heldWhole(k));
            assertEquals(1 << k, one.grid(k).planes);
        }
    }
}
