package io.pinmx.job;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuBindingTest
{
    @Test
    void bindsTheThreadToOneCpuAndGivesItsCpuSetBack()
    {
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        assertTrue(allowed >= 1);
        try (CpuBinding binding = CpuBinding.bindCurrentThread(allowed))
        {
            assertEquals(allowed, binding.allowedCpus());
            assertEquals(1, CpuBinding.allowedCpusOfThisThread(), "bound to CPU " + binding.cpu());
        }
        assertEquals(allowed, CpuBinding.allowedCpusOfThisThread(), "CPU set given back at close");
    }

    @Test
    void indexWrapsOverTheAllowedCpusAndANegativeOneIsRefused()
    {
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        final int first;
        try (CpuBinding binding = CpuBinding.bindCurrentThread(0))
        {
            first = binding.cpu();
        }
        try (CpuBinding binding = CpuBinding.bindCurrentThread(allowed))
        {
            assertEquals(first, binding.cpu(), "index " + allowed + " wraps to the first allowed CPU");
        }
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> CpuBinding.bindCurrentThread(-1));
        assertTrue(ex.getMessage().contains("-1"), ex.getMessage());
    }
}
