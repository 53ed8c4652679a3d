package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In a fresh JVM that logs every class it loads: after {@link SegmentKinds#loadAll()}, an application's segments of
 * every kind (heap buffers of each element type, a mapped file, each arena) load no segment or session class, so no
 * compiled code that assumed a kind absent is thrown away later. Without it the same program loads them (the test
 * sees what it claims to see).
 */
class SegmentKindsTest
{
    private static final String FIRST_USE = "first use of every kind";

    @Test
    void afterLoadAllAnApplicationsSegmentsOfEveryKindLoadNoSegmentClass() throws Exception
    {
        assertEquals(List.of(), segmentClassesLoadedByFirstUse(true));
    }

    @Test
    void withoutItTheFirstHeapSegmentOfAnElementTypeLoadsItsClass() throws Exception
    {
        final List<String> loaded = segmentClassesLoadedByFirstUse(false);
        assertTrue(loaded.containsAll(List.of("jdk.internal.foreign.HeapMemorySegmentImpl$OfDouble",
            "jdk.internal.foreign.MappedMemorySegmentImpl")), loaded::toString);
    }

    @Test
    void callingItAgainChangesNothing()
    {
        SegmentKinds.loadAll();
        SegmentKinds.loadAll();
        assertEquals(1.5, MemorySegment.ofArray(new double[] {1.5}).get(ValueLayout.JAVA_DOUBLE, 0));
    }

    /** The segment and session classes the child loaded once it printed {@link #FIRST_USE}. */
    private static List<String> segmentClassesLoadedByFirstUse(final boolean loadAllFirst) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xlog:class+load=info:stdout:uptime");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Child.class.getName());
        command.add(Boolean.toString(loadAllFirst));
        final Path output = Files.createDirectories(Path.of("target", "child-logs"))
            .resolve("segment-kinds-" + loadAllFirst + "-" + System.nanoTime() + ".log");
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
            .start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), () -> "child JVM still running, output in " + output);
        assertEquals(0, child.exitValue(), () -> "child's exit, output in " + output);
        final List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        final int marker = lines.indexOf(FIRST_USE);
        final int done = lines.indexOf("done");
        assertTrue(marker > 0 && done > marker, () -> "no markers in " + output);
        return lines.subList(marker, done).stream()
            .filter(line -> line.contains(" jdk.internal.foreign."))
            .map(line -> line.replaceFirst("^\\[[^]]*]\\s*", "").replaceFirst(" source:.*$", ""))
            .filter(name -> name.contains("MemorySegmentImpl") || name.contains("Session"))
            .toList();
    }

    /** Optionally loads every kind, then makes one segment of each kind as an application would. */
    static final class Child
    {
        public static void main(final String[] args) throws IOException
        {
            // One native segment first, as every pinmx process has before its application makes any.
            try (Arena arena = Arena.ofConfined())
            {
                arena.allocate(8).set(ValueLayout.JAVA_LONG, 0, 1);
            }
            if (Boolean.parseBoolean(args[0]))
            {
                SegmentKinds.loadAll();
            }
            System.out.println(FIRST_USE);
            // through heap buffers, the other way an application meets heap segments
            for (final Buffer buffer : List.of(ByteBuffer.allocate(1), CharBuffer.allocate(1), ShortBuffer.allocate(1),
                IntBuffer.allocate(1), FloatBuffer.allocate(1), LongBuffer.allocate(1), DoubleBuffer.allocate(1)))
            {
                MemorySegment.ofBuffer(buffer);
            }
            Arena.ofAuto().allocate(8);
            try (Arena shared = Arena.ofShared();
                FileChannel channel = FileChannel.open(Path.of("/proc/self/stat"), StandardOpenOption.READ))
            {
                shared.allocate(8);
                channel.map(FileChannel.MapMode.READ_ONLY, 0, 0, shared);
            }
            System.out.println("done");
        }
    }
}
