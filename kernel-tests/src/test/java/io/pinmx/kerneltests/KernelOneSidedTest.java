package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * pinmx.ko's one-sided writes from Java: a {@link OneSidedTarget} process declares a region for remote writes and
 * is stopped (SIGSTOP, every thread in state T) while this JVM puts (contiguous and a 16-piece strided putv), and
 * applies every atomic (int32 and int64 fetch-and-add, swap, compare-and-swap that fails and that stores,
 * accumulate) to it, checking each old value; a wrong key is refused for a put and an atomic, a range past the end
 * and a misaligned word too. After SIGCONT the target's memory is exactly what the operations wrote. Over {@code lo}
 * and across a veth pair to a target in another network namespace.
 */
class KernelOneSidedTest
{
    private static final long EVENT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long PROCESS_TIMEOUT_S = 60;
    private static final int PUT_OFFSET = 100;
    private static final int PUT_BYTES = 5000;
    private static final int ROWS = 16;
    private static final int ROW_BYTES = 64;
    private static final int ROW_STRIDE = 256;
    private static final int STRIDED_OFFSET = 8192;
    private static final int WORDS_OFFSET = 16384;
    private static final int ACCUMULATE_WORDS = 10;
    private static final int UNTOUCHED_OFFSET = 32768;

    @Test
    void putsAndAtomicsReachAStoppedTargetOverLo() throws Exception
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        runAgainstTarget(driver, List.of(), "lo", "lo");
    }

    @Test
    void putsAndAtomicsReachAStoppedTargetAcrossAVethPair() throws Exception
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        NetworkNamespaces.withVethPair(NetworkNamespaces.requireIp(), "pmos", -1,
            pair -> runAgainstTarget(driver, pair.enter(), pair.here(), pair.there()));
    }

    private static void runAgainstTarget(
        final KernelDriver driver, final List<String> prefix, final String here, final String there)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), OneSidedTarget.class.getName(), there,
            "2"));
        final Process target = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (KernelEndpoint origin = (KernelEndpoint)driver.open(
                KernelDevices.config(1, KernelDriverOptions.defaults().withInterface(here)));
             Arena arena = Arena.ofShared();
             BufferedReader fromTarget = new BufferedReader(
                 new InputStreamReader(target.getInputStream(), StandardCharsets.US_ASCII));
             Writer toTarget = new OutputStreamWriter(target.getOutputStream(), StandardCharsets.US_ASCII))
        {
            assumeTrue(origin.hasModuleFeature(PinmxAbi.FEATURE_NET_PUT | PinmxAbi.FEATURE_NET_ATOMIC),
                () -> "pinmx.ko lacks NET_PUT or NET_ATOMIC: " + origin.info().chosenBecause());
            final String line = fromTarget.readLine();
            assertTrue(null != line && line.startsWith("TARGET "), "target said: " + line);
            final String[] t = line.split(" ");
            final OneSidedRun run = new OneSidedRun(origin, arena, origin.acquirePeer(BoardAddress.parse(t[1])),
                Integer.parseInt(t[2]), Integer.parseInt(t[3]), Integer.parseInt(t[4]), Long.parseLong(t[5]));
            StoppedProcesses.stop(target.pid());
            try
            {
                run.applyAll();
            }
            finally
            {
                StoppedProcesses.resume(target.pid());
            }
            toTarget.write("DUMP\n");
            toTarget.flush();
            final String dump = fromTarget.readLine();
            assertTrue(null != dump && dump.startsWith("DUMP "), "target said: " + dump);
            assertArrayEquals(run.expected, HexFormat.of().parseHex(dump.substring("DUMP ".length())),
                "the target's memory after SIGCONT");
            toTarget.write("EXIT\n");
            toTarget.flush();
            assertTrue(target.waitFor(PROCESS_TIMEOUT_S, TimeUnit.SECONDS), "target finished");
            assertEquals(0, target.exitValue(), "target exit status");
        }
        finally
        {
            target.destroyForcibly();
        }
    }

    /** The operations on one target and the memory they must leave there. */
    private static final class OneSidedRun
    {
        private final KernelEndpoint origin;
        private final Arena arena;
        private final PutSpec put = new PutSpec();
        private final AtomicSpec atomic = new AtomicSpec();
        private final int regionId;
        private final long key;
        private final byte[] expected = new byte[OneSidedTarget.REGION_BYTES];
        private final ByteBuffer mirror = ByteBuffer.wrap(expected).order(ByteOrder.nativeOrder());
        private int handle = 100;

        OneSidedRun(final KernelEndpoint origin, final Arena arena, final int peer, final int endpoint,
            final int session, final int regionId, final long key)
        {
            this.origin = origin;
            this.arena = arena;
            this.regionId = regionId;
            this.key = key;
            put.target().set(peer, endpoint, session, regionId, key);
            atomic.target().set(peer, endpoint, session, regionId, key);
        }

        void applyAll()
        {
            final MemorySegment source = Patterns.pattern(arena, PUT_BYTES, 5);
            final int local = origin.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
            origin.startPut(put.source(local, ++handle).contiguous(PUT_OFFSET, 0, PUT_BYTES));
            assertEquals(PUT_BYTES, awaitEnd(EventType.PUT_DONE).bytes());
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, 0, expected, PUT_OFFSET, PUT_BYTES);
            final long[] remote = new long[ROWS];
            final long[] localOffsets = new long[ROWS];
            final long[] lengths = new long[ROWS];
            for (int row = 0; row < ROWS; row++)
            {
                remote[row] = STRIDED_OFFSET + (long)row * ROW_STRIDE;
                localOffsets[row] = (long)row * ROW_BYTES * 2;
                lengths[row] = ROW_BYTES;
                MemorySegment.copy(source, ValueLayout.JAVA_BYTE, localOffsets[row], expected, (int)remote[row],
                    ROW_BYTES);
            }
            origin.startPut(put.source(local, ++handle).pieces(remote, localOffsets, lengths, ROWS));
            assertEquals((long)ROWS * ROW_BYTES, awaitEnd(EventType.PUT_DONE).bytes());
            wordOperations();
            refusals(local);
        }

        private void wordOperations()
        {
            long sum = 0;
            for (int i = 1; i <= 10; i++)
            {
                assertEquals(sum, word(AtomicOp.FETCH_ADD, 8, WORDS_OFFSET, i, 0), "fetch-and-add " + i);
                sum += i;
            }
            mirror.putLong(WORDS_OFFSET, sum);
            assertEquals(0, word(AtomicOp.FETCH_ADD, 4, WORDS_OFFSET + 8, -1, 0));
            assertEquals(0xFFFF_FFFFL, word(AtomicOp.FETCH_ADD, 4, WORDS_OFFSET + 8, -1, 0), "int32 old value");
            mirror.putInt(WORDS_OFFSET + 8, -2);
            assertEquals(0, word(AtomicOp.SWAP, 8, WORDS_OFFSET + 16, 0xDEAD_BEEF_0BAD_F00DL, 0));
            assertEquals(0xDEAD_BEEF_0BAD_F00DL, word(AtomicOp.SWAP, 8, WORDS_OFFSET + 16, 7, 0));
            mirror.putLong(WORDS_OFFSET + 16, 7);
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 5, 1), "a failing CAS answers 0");
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 42, 0));
            assertEquals(42, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 43, 42));
            mirror.putLong(WORDS_OFFSET + 24, 43);
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 4, WORDS_OFFSET + 32, 9, 0));
            mirror.putInt(WORDS_OFFSET + 32, 9);
            for (final int width : new int[] {8, 4})
            {
                final int at = WORDS_OFFSET + (width == 8 ? 64 : 192);
                final MemorySegment values = arena.allocate((long)ACCUMULATE_WORDS * width, width);
                for (int i = 0; i < ACCUMULATE_WORDS; i++)
                {
                    if (width == 8)
                    {
                        values.setAtIndex(ValueLayout.JAVA_LONG, i, 3L * i - 7);
                        mirror.putLong(at + 8 * i, 2 * (3L * i - 7));
                    }
                    else
                    {
                        values.setAtIndex(ValueLayout.JAVA_INT, i, 5 * i - 11);
                        mirror.putInt(at + 4 * i, 2 * (5 * i - 11));
                    }
                }
                for (int twice = 0; twice < 2; twice++)
                {
                    origin.startAtomic(atomic.accumulate(width, at, values, ++handle));
                    assertEquals(0, awaitEnd(EventType.ATOMIC_DONE).oldValue(), "accumulate answers 0");
                }
            }
        }

        private void refusals(final int local)
        {
            put.target().set(put.target().peerIndex(), put.target().endpointIndex(), put.target().sessionId(),
                regionId, key ^ 0x5A5A);
            origin.startPut(put.source(local, ++handle).contiguous(UNTOUCHED_OFFSET, 0, 2000));
            final Ended wrongKeyPut = awaitEnd(EventType.PUT_FAILED);
            assertEquals(DriverError.BAD_KEY, wrongKeyPut.error(), wrongKeyPut.message());
            assertTrue(wrongKeyPut.message().contains("refused the key"), wrongKeyPut.message());
            atomic.target().set(put.target().peerIndex(), put.target().endpointIndex(), put.target().sessionId(),
                regionId, key ^ 0x5A5A);
            origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, UNTOUCHED_OFFSET, 1, 0, ++handle));
            assertEquals(DriverError.BAD_KEY, awaitEnd(EventType.ATOMIC_FAILED).error());
            put.target().set(put.target().peerIndex(), put.target().endpointIndex(), put.target().sessionId(),
                regionId, key);
            origin.startPut(put.source(local, ++handle).contiguous(OneSidedTarget.REGION_BYTES - 10, 0, 100));
            final Ended pastTheEnd = awaitEnd(EventType.PUT_FAILED);
            assertEquals(DriverError.OUT_OF_RANGE, pastTheEnd.error(), pastTheEnd.message());
            final DriverException misaligned = assertThrows(DriverException.class, () -> origin.startAtomic(
                atomic.word(AtomicOp.SWAP, 8, WORDS_OFFSET + 4, 1, 0, ++handle)));
            assertEquals(DriverError.BAD_ARGUMENT, misaligned.kind());
            assertTrue(misaligned.getMessage().contains("remote offset " + (WORDS_OFFSET + 4)), misaligned.getMessage());
        }

        private long word(final AtomicOp op, final int width, final long offset, final long operand, final long compare)
        {
            origin.startAtomic(atomic.word(op, width, offset, operand, compare, ++handle));
            return awaitEnd(EventType.ATOMIC_DONE).oldValue();
        }

        private Ended awaitEnd(final EventType expectedType)
        {
            final List<Ended> ended = new ArrayList<>();
            final long deadline = System.nanoTime() + EVENT_TIMEOUT_NS;
            while (ended.isEmpty() && System.nanoTime() - deadline < 0)
            {
                origin.await(deadline - System.nanoTime());
                origin.poll((DriverEvent e) -> ended.add(new Ended(e.type(), e.pullHandle(), e.bytes(), e.oldValue(),
                    e.error(), e.errorMessage().toString())), 1);
            }
            assertEquals(1, ended.size(), "an end event for handle " + handle + " within the deadline");
            final Ended end = ended.getFirst();
            assertEquals(expectedType, end.type(), end.toString());
            assertEquals(handle, end.handle(), "the event's handle");
            return end;
        }
    }

    private record Ended(EventType type, int handle, long bytes, long oldValue, DriverError error, String message)
    {
    }
}
