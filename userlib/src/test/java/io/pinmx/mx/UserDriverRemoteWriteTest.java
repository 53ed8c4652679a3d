package io.pinmx.mx;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint library's one-sided writes on the user driver, as kernel-tests' {@code KernelRemoteWriteTest} runs
 * them on pinmx.ko: a target endpoint exposes memory for writes and its partner's {@code iput} (native and heap),
 * {@code iputv}, {@code iatomic} and {@code iaccumulate} land there exactly with every old value returned; a wrong
 * key fails the request naming BAD_KEY and touches nothing, a misaligned word or a bad width is refused at the call;
 * the region is read back with its key and a read without it fails naming BAD_KEY. On one host (puts by
 * process_vm_writev, atomics and keyed reads served by the target's driver) and over UDP (the same-host path off).
 */
class UserDriverRemoteWriteTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEY = 0x0AE8;
    private static final int REGION_BYTES = 1 << 16;

    private final Arena arena = Arena.ofShared();
    private Endpoint origin;
    private Endpoint target;
    private Partner partner;
    private MemorySegment memory;
    private ExposedRegion region;

    private void open(final String path)
    {
        final UserDriverOptions driver = UserDriverOptions.defaults().withSameHost(path.equals("same host"));
        origin = TestEndpoints.open(TestEndpoints.options(1, KEY, driver).build());
        target = TestEndpoints.open(TestEndpoints.options(2, KEY, driver).build());
        assertTrue(origin.driverInfo().has(DriverFeature.REMOTE_WRITE) &&
            origin.driverInfo().has(DriverFeature.REMOTE_ATOMIC), origin.driverInfo().features().toString());
        partner = origin.connect(target.address(), KEY, TIMEOUT);
        memory = arena.allocate(REGION_BYTES, 4096);
        region = target.regions().exposeForWrites(memory);
    }

    @AfterEach
    void close()
    {
        if (null != origin)
        {
            origin.close();
            target.close();
        }
        arena.close();
    }

    private long done(final Request request)
    {
        final long old = request.awaitOrThrow(TIMEOUT).oldValue();
        request.release();
        return old;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void putsAndAtomicsLandExactlyInTheExposedMemory(final String path)
    {
        open(path);
        assertTrue(region.key() != 0, "a region exposed for writes has a key");
        final MemorySegment source = pattern(10_000, 3);
        done(origin.writes().iput(partner, region.id(), region.key(), 1000, source));
        assertEquals(-1, memory.asSlice(1000, 10_000).mismatch(source), "contiguous put");
        final MemorySegment heapRow = MemorySegment.ofArray(new byte[] {9, 8, 7, 6, 5, 4, 3, 2});
        done(origin.writes().iput(partner, region.id(), region.key(), 20_000, heapRow));
        assertEquals(-1, memory.asSlice(20_000, 8).mismatch(heapRow), "a heap source is staged");
        final long[] remote = {30_000, 30_512, 31_024};
        final long[] local = {0, 100, 200};
        final long[] lengths = {64, 64, 64};
        done(origin.writes().iputv(partner, region.id(), region.key(), remote, source, local, lengths, 3));
        for (int i = 0; i < 3; i++)
        {
            assertEquals(-1, memory.asSlice(remote[i], 64).mismatch(source.asSlice(local[i], 64)), "piece " + i);
        }
        final long word = 40_000;
        assertEquals(0, done(origin.writes().iatomic(partner, region.id(), region.key(), AtomicOp.FETCH_ADD, 8, word,
            5, 0)));
        assertEquals(5, done(origin.writes().iatomic(partner, region.id(), region.key(), AtomicOp.SWAP, 8, word, 11,
            0)));
        assertEquals(11, done(origin.writes().iatomic(partner, region.id(), region.key(), AtomicOp.COMPARE_AND_SWAP, 8,
            word, 12, 10)), "a CAS that does not store answers the word");
        assertEquals(11, done(origin.writes().iatomic(partner, region.id(), region.key(), AtomicOp.COMPARE_AND_SWAP, 8,
            word, 12, 11)));
        assertEquals(12, memory.get(ValueLayout.JAVA_LONG, word));
        assertEquals(0, done(origin.writes().iatomic(partner, region.id(), region.key(), AtomicOp.FETCH_ADD, 4,
            word + 8, 3, 0)));
        assertEquals(3, memory.get(ValueLayout.JAVA_INT, word + 8));
        final MemorySegment values = arena.allocate(4 * 8, 8);
        for (int i = 0; i < 4; i++)
        {
            values.setAtIndex(ValueLayout.JAVA_LONG, i, 100L * i - 1);
        }
        done(origin.writes().iaccumulate(partner, region.id(), region.key(), 8, word + 64, values));
        done(origin.writes().iaccumulate(partner, region.id(), region.key(), 8, word + 64, values));
        for (int i = 0; i < 4; i++)
        {
            assertEquals(2 * (100L * i - 1), memory.getAtIndex(ValueLayout.JAVA_LONG, (word + 64) / 8 + i), "word " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void aWrongKeyFailsTheRequestAndBadArgumentsAreRefusedAtTheCall(final String path)
    {
        open(path);
        final MemorySegment source = pattern(256, 4);
        final Request wrongKey = origin.writes().iput(partner, region.id(), region.key() + 1, 0, source);
        final MxException refused = assertThrows(MxException.class, () -> wrongKey.awaitOrThrow(TIMEOUT));
        assertTrue(refused.getMessage().contains("BAD_KEY"), refused.getMessage());
        wrongKey.release();
        final Request wrongKeyAtomic = origin.writes().iatomic(partner, region.id(), 0, AtomicOp.SWAP, 8, 0, 1, 0);
        final MxException atomicRefused = assertThrows(MxException.class, () -> wrongKeyAtomic.awaitOrThrow(TIMEOUT));
        assertTrue(atomicRefused.getMessage().contains("BAD_KEY"), atomicRefused.getMessage());
        wrongKeyAtomic.release();
        assertEquals(-1, memory.asSlice(0, 256).mismatch(MemorySegment.ofArray(new byte[256])), "memory untouched");
        final DriverException misaligned = assertThrows(DriverException.class, () -> origin.writes().iatomic(partner,
            region.id(), region.key(), AtomicOp.FETCH_ADD, 8, 12, 1, 0));
        assertEquals(DriverError.BAD_ARGUMENT, misaligned.kind());
        assertTrue(misaligned.getMessage().contains("remote offset 12"), misaligned.getMessage());
        final DriverException width = assertThrows(DriverException.class, () -> origin.writes().iatomic(partner,
            region.id(), region.key(), AtomicOp.SWAP, 2, 0, 1, 0));
        assertTrue(width.getMessage().contains("width 2"), width.getMessage());
        done(origin.writes().iput(partner, region.id(), region.key(), 0, source));
        assertEquals(-1, memory.asSlice(0, 256).mismatch(source), "the endpoint still writes after the refusals");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void aRegionExposedForWritesIsReadWithItsKeyOnly(final String path)
    {
        open(path);
        final MemorySegment source = pattern(3000, 6);
        done(origin.writes().iput(partner, region.id(), region.key(), 500, source));
        final MemorySegment back = arena.allocate(3000);
        done(origin.regions().iget(partner, region.id(), region.key(), 500, back));
        assertEquals(-1, back.mismatch(source), "read back with the key");
        final Request keyless = origin.regions().iget(partner, region.id(), 500, arena.allocate(3000));
        final MxException refused = assertThrows(MxException.class, () -> keyless.awaitOrThrow(TIMEOUT));
        assertTrue(refused.getMessage().contains("BAD_KEY"), refused.getMessage());
        keyless.release();
    }

    private MemorySegment pattern(final int bytes, final int seed)
    {
        final MemorySegment segment = arena.allocate(bytes, 8);
        for (int i = 0; i < bytes; i++)
        {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 31 + seed));
        }
        return segment;
    }
}
