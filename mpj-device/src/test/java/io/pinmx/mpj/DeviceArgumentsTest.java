package io.pinmx.mpj;

import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.NIOBuffer;
import org.junit.jupiter.api.Test;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;
import xdev.mxdev.MXDevice;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the device says about bad calls it can refuse before joining a job, and where it reads MPJ's static buffer.
 */
class DeviceArgumentsTest
{
    @Test
    void initNeedsMpjsArgumentsAndANumericRank()
    {
        final XDevException none = assertThrows(XDevException.class, () -> new MXDevice().init(new String[0]));
        assertTrue(none.getMessage().contains("rank, config, device"), none.getMessage());
        final XDevException word = assertThrows(XDevException.class,
            () -> new MXDevice().init(new String[]{"first", "conf", "mxdev"}));
        assertTrue(word.getMessage().contains("'first' is not a number"), word.getMessage());
    }

    @Test
    void callsBeforeInitAreRefused()
    {
        final Device device = new MXDevice();
        if (!BufferFactory.initialized())
        {
            BufferFactory.init("Buddy1");
        }
        final Buffer buffer = new Buffer(BufferFactory.create(64), 0, 64);
        final ProcessID somebody = new ProcessID(UUID.randomUUID());
        final XDevException send = assertThrows(XDevException.class, () -> device.isend(buffer, somebody, 1, 0));
        assertTrue(send.getMessage().contains("call MPI.Init first"), send.getMessage());
        final XDevException probe = assertThrows(XDevException.class, () -> device.iprobe(somebody, 1, 0));
        assertTrue(probe.getMessage().contains("call MPI.Init first"), probe.getMessage());
        assertThrows(XDevException.class, device::finish);
    }

    @Test
    void theStaticBufferIsSentFromMpjsOwnMemory()
    {
        if (!BufferFactory.initialized())
        {
            BufferFactory.init("Buddy1");
        }
        final int offset = 8;
        final Buffer buffer = new Buffer(BufferFactory.create(4096), offset, 4096);
        final ByteBuffer direct = ((NIOBuffer)buffer.getStaticBuffer()).getBuffer();
        final MemorySegment region = StaticPart.region(buffer, 100);
        assertTrue(region.isNative(), "the static part must go as native memory, not staged");
        assertTrue(direct.isDirect());
        assertEquals(
            MemorySegment.ofBuffer(direct.slice(0, direct.capacity())).address() + offset,
            region.address(), "the region is MPJ's buffer itself, at the buffer's offset");
        assertEquals(100, region.byteSize());
        region.set(ValueLayout.JAVA_BYTE, 3, (byte)77);
        assertEquals(77, direct.get(offset + 3), "writes land in MPJ's buffer");
    }
}
