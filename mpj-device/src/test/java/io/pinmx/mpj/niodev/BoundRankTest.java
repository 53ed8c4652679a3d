package io.pinmx.mpj.niodev;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BoundRank runs a program's main as the java launcher would: also when the main class itself is not public (MPJ's
 * own tests have such classes), with MPJ's rank arguments; a class without a main is refused by name.
 */
class BoundRankTest
{
    private static final String NOT_PUBLIC_PROGRAM = "io.pinmx.mpj.niodev.fixture.NotPublicProgram";
    private static final String ARGS_PROPERTY = "pinmx.test.notPublicProgram.args";

    @Test
    void theMainOfAClassThatIsNotPublicRunsWithTheRankArguments() throws Throwable
    {
        System.clearProperty(ARGS_PROPERTY);
        BoundRank.main(new String[] {"2", NOT_PUBLIC_PROGRAM, "1", "CONFIG", "niodev", "x"});
        assertEquals("1 CONFIG niodev x", System.getProperty(ARGS_PROPERTY));
    }

    @Test
    void anExceptionOfTheProgramIsItsOwnNotAReflectionWrapper()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> BoundRank.main(new String[] {"2", FailingProgram.class.getName(), "0", "CONFIG", "niodev"}));
        assertEquals("program failed on rank 0", ex.getMessage());
    }

    @Test
    void aClassWithoutMainIsRefusedByName()
    {
        final NoSuchMethodException ex = assertThrows(NoSuchMethodException.class,
            () -> BoundRank.main(new String[] {"2", NoMain.class.getName(), "0", "CONFIG", "niodev"}));
        assertTrue(ex.getMessage().contains(NoMain.class.getName()), ex.getMessage());
    }

    @Test
    void tooFewArgumentsAreRefusedWithTheUsage()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BoundRank.main(new String[] {"2", NoMain.class.getName()}));
        assertTrue(ex.getMessage().startsWith("usage: BoundRank SIZE MAIN_CLASS"), ex.getMessage());
    }

    static final class FailingProgram
    {
        public static void main(final String[] args)
        {
            throw new IllegalStateException("program failed on rank " + args[0]);
        }
    }

    static final class NoMain
    {
    }
}
