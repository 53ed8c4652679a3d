package io.pinmx.pin.provider;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Loads every kind of memory segment and arena the JDK has, once per process, before pinmx's own code is compiled.
 * <p>
 * Why: while only native segments exist, C2 compiles every segment access on the assumption that native segments
 * are the only concrete kind (class-hierarchy analysis). The first heap segment of a new element type, such as an
 * application's {@code MemorySegment.ofArray(double[])} after start-up, or the first mapped file, breaks that
 * assumption: the JVM then throws away every compiled method that touches a segment (the frame dispatcher, the
 * checksums, the pull paths: hundreds of methods) and compiles them again, seconds of compiler time that, on a rank
 * bound to one CPU, the application waits for. With every kind loaded first, compiled code checks the segment's
 * class where the profile saw one kind and never depends on a kind staying absent.
 */
public final class SegmentKinds
{
    /** A file every Linux process may open: a zero-byte mapping of it maps nothing, but it is a mapped segment. */
    private static final Path ALWAYS_READABLE = Path.of("/proc/self/stat");

    private static volatile boolean loaded;

    private SegmentKinds()
    {
    }

    /**
     * Loads the heap segment of each primitive array type, a mapped segment and each kind of arena; later calls do
     * nothing. A process where the mapped kind cannot be made (no /proc) still gets the others.
     */
    public static void loadAll()
    {
        if (loaded)
        {
            return;
        }
        MemorySegment.ofArray(new byte[0]);
        MemorySegment.ofArray(new char[0]);
        MemorySegment.ofArray(new short[0]);
        MemorySegment.ofArray(new int[0]);
        MemorySegment.ofArray(new float[0]);
        MemorySegment.ofArray(new long[0]);
        MemorySegment.ofArray(new double[0]);
        Arena.ofAuto().allocate(1);
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared())
        {
            confined.allocate(1);
            shared.allocate(1);
            mapNothing(confined);
        }
        loaded = true;
    }

    private static void mapNothing(final Arena arena)
    {
        try (FileChannel channel = FileChannel.open(ALWAYS_READABLE, StandardOpenOption.READ))
        {
            channel.map(FileChannel.MapMode.READ_ONLY, 0, 0, arena);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            // Only compiled code's speed depends on it: a process without /proc loads the kind on first use.
        }
    }
}
