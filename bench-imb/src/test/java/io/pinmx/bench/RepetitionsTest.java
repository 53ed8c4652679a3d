package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RepetitionsTest
{
    @Test
    void imbRuleKeeps1000UpTo32KiBThenHalvesTo10At4MiB()
    {
        final Repetitions r = Repetitions.IMB_DEFAULT;
        assertEquals(1000, r.forSize(0));
        assertEquals(1000, r.forSize(1));
        assertEquals(1000, r.forSize(32768));
        assertEquals(640, r.forSize(65536));
        assertEquals(320, r.forSize(131072));
        assertEquals(40, r.forSize(1048576));
        assertEquals(10, r.forSize(4194304));
        assertEquals(1, r.forSize(1L << 30));
    }

    @Test
    void iterSetsPerSampleAndOptionallyTheVolumeInMegabytes()
    {
        final Repetitions fewer = Repetitions.parseIter("100");
        assertEquals(100, fewer.forSize(0));
        assertEquals(100, fewer.forSize(65536));
        assertEquals(10, fewer.forSize(4194304));

        final Repetitions smallVolume = Repetitions.parseIter("1000,4");
        assertEquals(1000, smallVolume.forSize(4096));
        assertEquals(64, smallVolume.forSize(65536));
        assertEquals(1, smallVolume.forSize(4194304));
    }

    @Test
    void badIterValuesNameTheOption()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Repetitions.parseIter("x")).getMessage().startsWith("-iter"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Repetitions.parseIter("0")).getMessage().startsWith("-iter"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Repetitions.parseIter("10,0")).getMessage().startsWith("-iter"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Repetitions.parseIter("1,2,3")).getMessage().startsWith("-iter"));
    }
}
