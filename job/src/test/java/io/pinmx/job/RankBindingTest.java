package io.pinmx.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankBindingTest
{
    @Test
    void bindWhenAskedLeavesTheThreadUnboundWithoutPinmxBind()
    {
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        try (RankBinding binding = RankBinding.bindWhenAsked(0, 1, Map.of()))
        {
            assertEquals(allowed, CpuBinding.allowedCpusOfThisThread());
            assertTrue(binding.description().contains("not bound"), binding.description());
        }
    }

    @Test
    void bindWhenAskedBindsOnCoreAndGivesTheCpuSetBack()
    {
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        try (RankBinding binding = RankBinding.bindWhenAsked(0, 1, Map.of(RankBinding.BIND_VARIABLE, "core")))
        {
            assertEquals(1, CpuBinding.allowedCpusOfThisThread(), binding.description());
        }
        assertEquals(allowed, CpuBinding.allowedCpusOfThisThread());
    }

    @Test
    void moreRanksThanCpusAreLeftUnbound()
    {
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        try (RankBinding binding = RankBinding.bind(0, allowed + 1, Map.of(RankBinding.BIND_VARIABLE, "core")))
        {
            assertEquals(allowed, CpuBinding.allowedCpusOfThisThread());
            assertTrue(binding.description().contains(allowed + 1 + " ranks"), binding.description());
        }
    }

    @Test
    void refusesAnUnknownValueNamingTheVariable()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RankBinding.bindWhenAsked(0, 1, Map.of(RankBinding.BIND_VARIABLE, "socket")));
        assertTrue(ex.getMessage().contains("PINMX_BIND=socket"), ex.getMessage());
    }

    /** The host's CPU claims keep jobs apart; where they cannot be kept, the rank still binds, saying why. */
    @Test
    void aRankBindsWhenTheClaimsDirectoryCannotBeMade(@TempDir final Path dir) throws Exception
    {
        final Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        try (RankBinding binding = RankBinding.bind(0, 1, Map.of(RankBinding.BIND_VARIABLE, "core",
            "PINMX_SHM_DIR", notADirectory.toString())))
        {
            assertEquals(1, CpuBinding.allowedCpusOfThisThread(), binding.description());
            assertTrue(binding.description().contains("other jobs' CPUs unknown: cannot make the CPU claims " +
                "directory " + notADirectory.resolve("pinmx-cpus")), binding.description());
        }
        assertEquals(allowed, CpuBinding.allowedCpusOfThisThread());
    }
}
