package io.pinmx.pin.kernel;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every ioctl argument struct of the ABI fits a thread's scratch area and comes back zeroed. */
class IoctlScratchTest
{
    @Test
    void everyArgumentStructFitsTheScratchAreaZeroed() throws IllegalAccessException
    {
        final IoctlScratch scratch = IoctlScratch.get();
        int structs = 0;
        for (final Field field : PinmxAbi.class.getDeclaredFields())
        {
            if (!Modifier.isStatic(field.getModifiers()) || field.getType() != StructLayout.class)
            {
                continue;
            }
            final StructLayout layout = (StructLayout)field.get(null);
            scratch.struct.fill((byte)0x5a);
            final MemorySegment argument = scratch.struct(layout.byteSize());
            assertEquals(layout.byteSize(), argument.byteSize(), field.getName());
            assertEquals(-1L, argument.mismatch(MemorySegment.ofArray(new byte[(int)layout.byteSize()])),
                field.getName() + " not zeroed");
            structs++;
        }
        assertTrue(structs > 10, "only " + structs + " struct layouts found in PinmxAbi");
    }
}
