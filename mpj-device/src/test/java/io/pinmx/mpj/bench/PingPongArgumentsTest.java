package io.pinmx.mpj.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingPongArgumentsTest
{
    @Test
    void defaultsAreImbsSizesAndRepetitions()
    {
        final PingPongArguments a = PingPongArguments.parse(new String[0]);
        assertArrayEquals(new int[]{0, 22}, a.logs());
        assertEquals(1000, a.repetitions(0));
        assertEquals(10, a.repetitions(4 << 20));
    }

    @Test
    void repsRaisesOnlyTheSizesBelowIt()
    {
        final PingPongArguments a = PingPongArguments.parse(new String[]{"-reps", "200", "-msglog", "20:22"});
        assertArrayEquals(new int[]{20, 22}, a.logs());
        assertEquals(200, a.repetitions(4 << 20));
        assertEquals(1000, a.repetitions(8));
    }

    @ParameterizedTest
    @CsvSource({"-reps, 0, -reps 0", "-reps, x, -reps x", "-reps, 1000001, -reps 1000001", "-msglog, 3:2, -msglog 3:2",
        "-iter, 5, '-iter'"})
    void aBadArgumentIsNamed(final String name, final String value, final String named)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PingPongArguments.parse(new String[]{name, value}));
        assertTrue(ex.getMessage().contains(named), ex.getMessage());
    }

    @Test
    void aNameWithoutItsValueIsNamed()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PingPongArguments.parse(new String[]{"-msglog", "0:3", "-reps"}));
        assertTrue(ex.getMessage().contains("-reps needs a value"), ex.getMessage());
    }
}
