package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user driver's puts and atomics, as kernel-tests' {@code KernelOneSidedTest} does them on pinmx.ko: a
 * {@link RemoteWriteTarget} process declares a region for remote writes and never calls the library while this JVM
 * puts (contiguous and a 16-piece strided putv) and applies every atomic (int32 and int64 fetch-and-add, swap,
 * compare-and-swap that fails and that stores, accumulate twice) checking each old value; a wrong key is refused for a
 * put and an atomic, a range past the end too, a misaligned word at once. Then the target's memory is exactly what the
 * operations wrote. Same host (puts by process_vm_writev, atomics through the target's ring, served by its agent) and
 * across UDP (the same-host path off at both ends, everything as frames served by the target's agent); over UDP also
 * with a fifth of the origin's received frames dropped, so frames and requests are resent and a resent atomic must not
 * apply twice. Same-host puts need nothing of the target: they land while its process is stopped (SIGSTOP, every
 * thread in state T). Frames and atomics need the target's agent to run: on the user driver the target is not passive;
 * atomics sent to a stopped target are resent into its ring until it runs again, and each is applied once.
 */
class RemoteWriteTest
{
    private static final long EVENT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long LINE_TIMEOUT_MS = 60_000;
    private static final int PUT_OFFSET = 100;
    private static final int PUT_BYTES = 50_000;
    private static final int ROWS = 16;
    private static final int ROW_BYTES = 64;
    private static final int ROW_STRIDE = 256;
    private static final int STRIDED_OFFSET = 57344;
    private static final int WORDS_OFFSET = 61440;
    private static final int ACCUMULATE_WORDS = 10;
    private static final int UNTOUCHED_OFFSET = 63488;
    private static final int FETCH_ADDS = 50;
    private static final int STOPPED_ATOMICS = 8;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp", "udp dropping a fifth of the replies"})
    void putsAndAtomicsReachATargetThatNeverCallsTheLibrary(final String path) throws Exception
    {
        final boolean sameHost = path.equals("same host");
        final boolean lossy = path.startsWith("udp dropping");
        UserDriverOptions options = UserDriverOptions.defaults().withSameHost(sameHost);
        if (lossy)
        {
            options = options.withLoss(0, 0.2, 42).withPullResend(TimeUnit.MILLISECONDS.toNanos(5), 200);
        }
        try (ChildJvm target = ChildJvm.start(RemoteWriteTarget.class, Boolean.toString(sameHost));
             Arena arena = Arena.ofShared();
             DriverEndpoint origin = new UserDriver("remote-write origin").open(EndpointConfig.builder()
                 .endpointIndex(1).options(UserDriverOptions.class, options).build()))
        {
            assertTrue(origin.info().has(DriverFeature.REMOTE_WRITE) && origin.info().has(DriverFeature.REMOTE_ATOMIC),
                origin.info().features().toString());
            final String[] t = target.awaitLine("TARGET", LINE_TIMEOUT_MS).split(" ");
            final OneSidedRun run = new OneSidedRun(origin, arena, origin.acquirePeer(BoardAddress.parse(t[0])),
                Integer.parseInt(t[1]), Integer.parseInt(t[2]), Integer.parseInt(t[3]), Long.parseLong(t[4]));
            run.applyAll();
            target.send("DUMP");
            assertArrayEquals(run.expected, HexFormat.of().parseHex(target.awaitLine("DUMP", LINE_TIMEOUT_MS)),
                "the target's memory");
            target.send("EXIT");
            final long putFrames = origin.counters().get(Counter.FRAMES_SENT_PUT);
            assertTrue(sameHost ? putFrames == 0 : putFrames > 0, "PUT frames sent: " + putFrames);
            final long atomicFrames = origin.counters().get(Counter.FRAMES_SENT_ATOMIC);
            assertTrue(atomicFrames > 0, "atomics go to the target's agent");
            assertEquals(sameHost ? atomicFrames : 0, origin.counters().get(Counter.SHM_FRAMES_SENT),
                "ATOMIC frames through the target's ring (on one host, where they are the origin's only ring frames)");
            assertEquals(3, origin.counters().get(Counter.PUTS_DONE), "puts done");
            assertEquals(2, origin.counters().get(Counter.PUTS_FAILED), "puts refused");
            if (lossy)
            {
                assertTrue(origin.counters().get(Counter.REMOTE_WRITES_RESENT) > 0, "lost answers were resent");
            }
        }
    }

    @Test
    void sameHostPutsReachAStoppedTarget() throws Exception
    {
        try (ChildJvm target = ChildJvm.start(RemoteWriteTarget.class, "true");
             Arena arena = Arena.ofShared();
             DriverEndpoint origin = new UserDriver("remote-write origin").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, UserDriverOptions.defaults()).build()))
        {
            final String[] t = target.awaitLine("TARGET", LINE_TIMEOUT_MS).split(" ");
            final OneSidedRun run = new OneSidedRun(origin, arena, origin.acquirePeer(BoardAddress.parse(t[0])),
                Integer.parseInt(t[1]), Integer.parseInt(t[2]), Integer.parseInt(t[3]), Long.parseLong(t[4]));
            stop(target.pid());
            try
            {
                run.puts();
            }
            finally
            {
                signal("CONT", target.pid());
            }
            target.send("DUMP");
            assertArrayEquals(run.expected, HexFormat.of().parseHex(target.awaitLine("DUMP", LINE_TIMEOUT_MS)),
                "the target's memory after SIGCONT");
            assertEquals(0, origin.counters().get(Counter.FRAMES_SENT_PUT), "written by process_vm_writev");
            target.send("EXIT");
        }
    }

    @Test
    void sameHostAtomicsResentIntoTheRingOfAStoppedTargetApplyOnce() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults()
            .withPullResend(TimeUnit.MILLISECONDS.toNanos(2), 1000);
        try (ChildJvm target = ChildJvm.start(RemoteWriteTarget.class, "true");
             DriverEndpoint origin = new UserDriver("remote-write origin").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, options).build()))
        {
            final String[] t = target.awaitLine("TARGET", LINE_TIMEOUT_MS).split(" ");
            final AtomicSpec atomic = new AtomicSpec();
            atomic.target().set(origin.acquirePeer(BoardAddress.parse(t[0])), Integer.parseInt(t[1]),
                Integer.parseInt(t[2]), Integer.parseInt(t[3]), Long.parseLong(t[4]));
            final OneSidedEnds ends = new OneSidedEnds(origin);
            stop(target.pid());
            try
            {
                for (int handle = 1; handle <= STOPPED_ATOMICS; handle++)
                {
                    origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, WORDS_OFFSET, 1, 0, handle));
                }
                await().atMost(Duration.ofSeconds(30)).until(() ->
                    origin.counters().get(Counter.REMOTE_WRITES_RESENT) >= 3 * STOPPED_ATOMICS);
            }
            finally
            {
                signal("CONT", target.pid());
            }
            final boolean[] seen = new boolean[STOPPED_ATOMICS];
            for (int handle = 1; handle <= STOPPED_ATOMICS; handle++)
            {
                final int old = (int)ends.await(handle, EVENT_TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue();
                assertTrue(old >= 0 && old < STOPPED_ATOMICS && !seen[old], "old value " + old + " of " + handle);
                seen[old] = true;
            }
            final byte[] expected = new byte[RemoteWriteTarget.REGION_BYTES];
            ByteBuffer.wrap(expected).order(ByteOrder.nativeOrder()).putLong(WORDS_OFFSET, STOPPED_ATOMICS);
            target.send("DUMP");
            assertArrayEquals(expected, HexFormat.of().parseHex(target.awaitLine("DUMP", LINE_TIMEOUT_MS)),
                "each request applied once, however often it was resent");
            assertTrue(origin.counters().get(Counter.SHM_FRAMES_SENT) >= 4 * STOPPED_ATOMICS,
                "requests and their resends went through the target's ring: " +
                origin.counters().get(Counter.SHM_FRAMES_SENT));
            target.send("EXIT");
        }
    }

    /** Sends SIGSTOP and waits until every thread of the process is stopped (state T in /proc). */
    private static void stop(final long pid) throws Exception
    {
        signal("STOP", pid);
        await().atMost(Duration.ofSeconds(30)).until(() -> allThreadsStopped(pid));
    }

    private static boolean allThreadsStopped(final long pid) throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task")))
        {
            return tasks.allMatch(task ->
            {
                try
                {
                    final String stat = Files.readString(task.resolve("stat"));
                    return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
                }
                catch (final IOException e)
                {
                    return true;
                }
            });
        }
    }

    private static void signal(final String name, final long pid) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " " + pid);
    }

    /** The operations on one target and the memory they must leave there. */
    private static final class OneSidedRun
    {
        private final DriverEndpoint origin;
        private final Arena arena;
        private final PutSpec put = new PutSpec();
        private final AtomicSpec atomic = new AtomicSpec();
        private final int regionId;
        private final long key;
        private final byte[] expected = new byte[RemoteWriteTarget.REGION_BYTES];
        private final ByteBuffer mirror = ByteBuffer.wrap(expected).order(ByteOrder.nativeOrder());
        private int handle = 100;

        OneSidedRun(final DriverEndpoint origin, final Arena arena, final int peer, final int endpoint,
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
            final int local = puts();
            wordOperations();
            refusals(local);
        }

        /** @return the local region the puts came from. */
        int puts()
        {
            final MemorySegment source = arena.allocate(PUT_BYTES, 8);
            Patterns.fill(source, 5);
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
            // a second put over the first one's bytes: the later bytes stay
            origin.startPut(put.source(local, ++handle).contiguous(PUT_OFFSET + 7, 1000, 3000));
            assertEquals(3000, awaitEnd(EventType.PUT_DONE).bytes());
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, 1000, expected, PUT_OFFSET + 7, 3000);
            return local;
        }

        private void wordOperations()
        {
            long sum = 0;
            for (int i = 1; i <= FETCH_ADDS; i++)
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
            assertEquals(0, word(AtomicOp.SWAP, 4, WORDS_OFFSET + 40, 0x8000_0001L, 0));
            assertEquals(0x8000_0001L, word(AtomicOp.SWAP, 4, WORDS_OFFSET + 40, 3, 0), "int32 swap's old value");
            mirror.putInt(WORDS_OFFSET + 40, 3);
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 5, 1), "a failing CAS answers 0");
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 42, 0));
            assertEquals(42, word(AtomicOp.COMPARE_AND_SWAP, 8, WORDS_OFFSET + 24, 43, 42));
            mirror.putLong(WORDS_OFFSET + 24, 43);
            assertEquals(0, word(AtomicOp.COMPARE_AND_SWAP, 4, WORDS_OFFSET + 32, 9, 0));
            assertEquals(9, word(AtomicOp.COMPARE_AND_SWAP, 4, WORDS_OFFSET + 32, 11, 8), "a failing int32 CAS");
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
            final Ended wrongKeyAtomic = awaitEnd(EventType.ATOMIC_FAILED);
            assertEquals(DriverError.BAD_KEY, wrongKeyAtomic.error(), wrongKeyAtomic.message());
            put.target().set(put.target().peerIndex(), put.target().endpointIndex(), put.target().sessionId(),
                regionId, key);
            atomic.target().set(put.target().peerIndex(), put.target().endpointIndex(), put.target().sessionId(),
                regionId, key);
            origin.startPut(put.source(local, ++handle).contiguous(RemoteWriteTarget.REGION_BYTES - 10, 0, 100));
            final Ended pastTheEnd = awaitEnd(EventType.PUT_FAILED);
            assertEquals(DriverError.OUT_OF_RANGE, pastTheEnd.error(), pastTheEnd.message());
            assertTrue(pastTheEnd.message().contains("region offset " + (RemoteWriteTarget.REGION_BYTES - 10)),
                pastTheEnd.message());
            origin.startAtomic(atomic.word(AtomicOp.SWAP, 8, RemoteWriteTarget.REGION_BYTES, 1, 0, ++handle));
            final Ended atomicPastTheEnd = awaitEnd(EventType.ATOMIC_FAILED);
            assertEquals(DriverError.OUT_OF_RANGE, atomicPastTheEnd.error(), atomicPastTheEnd.message());
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
