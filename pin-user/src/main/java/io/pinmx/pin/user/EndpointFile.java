package io.pinmx.pin.user;

import io.pinmx.pin.provider.FileSpace;
import io.pinmx.pin.provider.Libc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An endpoint's shared-memory file, {@code <dir>/pinmx-udp-<port>} (dir is /dev/shm by default): a header
 * naming its owner (pid, session id, UDP port), the endpoint's many-to-one {@link ShmFrameRing} of incoming
 * eager frames, its {@link RegionTable} and its {@link SharedPulls}. The owner creates and deletes it; a same-host
 * peer maps it to send frames into the ring, to resolve region ids for single-copy pulls and to copy its part of a
 * shared pull.
 * <p>
 * Header: magic (long, written after the pid), layout version (int), pid (int), session id (int), UDP port
 * (int), ready flag (int, set last by the owner, cleared at close), ring capacity (int), max regions (int); the
 * owner's {@link SharedPulls} at {@link #SHARED_PULLS_OFFSET}. Ring at {@link #RING_OFFSET}; region table after
 * it, page aligned.
 */
final class EndpointFile implements AutoCloseable
{
    static final String FILE_PREFIX = "pinmx-udp-";

    private static final long MAGIC = 0x50494E4D58455031L;
    private static final int LAYOUT_VERSION = 2;
    private static final long MAGIC_OFFSET = 0;
    private static final long VERSION_OFFSET = 8;
    private static final long PID_OFFSET = 12;
    private static final long SESSION_OFFSET = 16;
    private static final long PORT_OFFSET = 20;
    private static final long READY_OFFSET = 24;
    private static final long RING_CAPACITY_OFFSET = 28;
    private static final long MAX_REGIONS_OFFSET = 32;
    private static final long SHARED_PULLS_OFFSET = 2048;
    private static final long RING_OFFSET = 4096;
    private static final long PAGE_BYTES = 4096;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Path path;
    private final Arena arena;
    private final MemorySegment mapped;
    private final boolean owner;
    private final int pid;
    private final int sessionId;
    private final ShmFrameRing ring;
    private final RegionTable regions;
    private final SharedPulls sharedPulls;

    private EndpointFile(
        final Path path, final Arena arena, final MemorySegment mapped, final boolean owner, final int ringCapacity,
        final int maxRegions)
    {
        this.path = path;
        this.arena = arena;
        this.mapped = mapped;
        this.owner = owner;
        this.pid = mapped.get(ValueLayout.JAVA_INT, PID_OFFSET);
        this.sessionId = mapped.get(ValueLayout.JAVA_INT, SESSION_OFFSET);
        final long ringBytes = ShmFrameRing.areaBytes(ringCapacity);
        this.ring = new ShmFrameRing(mapped.asSlice(RING_OFFSET, ringBytes));
        this.regions = new RegionTable(
            mapped.asSlice(tableOffset(ringCapacity), RegionTable.areaBytes(maxRegions)));
        this.sharedPulls = new SharedPulls(mapped.asSlice(SHARED_PULLS_OFFSET, SharedPulls.AREA_BYTES));
    }

    static Path pathFor(final Path directory, final int port)
    {
        return directory.resolve(FILE_PREFIX + port);
    }

    /**
     * Create (replacing a stale file left by a dead owner: we hold the UDP port, so the name is ours), its memory
     * allocated before it is mapped.
     *
     * @throws IOException naming the directory, the bytes asked, what is free and
     *                     {@value UserDriverOptions#SHM_DIRECTORY_VARIABLE} when the directory has no room for the
     *                     file (then no file is left).
     */
    static EndpointFile create(
        final Path directory, final int port, final int sessionId, final int ringCapacity, final int maxRegions)
        throws IOException
    {
        final Path path = pathFor(directory, port);
        final long size = fileBytes(ringCapacity, maxRegions);
        removeFilesOfDeadOwners(directory);
        Files.deleteIfExists(path);
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            FileSpace.reserve(path, size, UserDriverOptions.SHM_DIRECTORY_VARIABLE);
            final MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            mapped.set(ValueLayout.JAVA_INT, VERSION_OFFSET, LAYOUT_VERSION);
            mapped.set(ValueLayout.JAVA_INT, PID_OFFSET, Libc.pid());
            mapped.set(ValueLayout.JAVA_INT, SESSION_OFFSET, sessionId);
            mapped.set(ValueLayout.JAVA_INT, PORT_OFFSET, port);
            mapped.set(ValueLayout.JAVA_INT, RING_CAPACITY_OFFSET, ringCapacity);
            mapped.set(ValueLayout.JAVA_INT, MAX_REGIONS_OFFSET, maxRegions);
            // Magic after the pid: another endpoint starting at the same moment scans for files of dead owners,
            // and a magic next to a pid not yet written (0) would read as dead and have this file deleted.
            LONG.setVolatile(mapped, MAGIC_OFFSET, MAGIC);
            final EndpointFile file = new EndpointFile(path, arena, mapped, true, ringCapacity, maxRegions);
            INT.setVolatile(mapped, READY_OFFSET, 1);
            return file;
        }
        catch (final IOException | RuntimeException e)
        {
            arena.close();
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException notRemoved)
            {
                e.addSuppressed(notRemoved);
            }
            throw e;
        }
    }

    /** The bytes of an endpoint file with that ring and region table. */
    static long fileBytes(final int ringCapacity, final int maxRegions)
    {
        return tableOffset(ringCapacity) + RegionTable.areaBytes(maxRegions);
    }

    /**
     * Map a same-host peer's file.
     *
     * @return null when there is none, it is not ready, or its owner process is gone.
     */
    static EndpointFile openPeer(final Path directory, final int port)
    {
        final Path path = pathFor(directory, port);
        if (!Files.isRegularFile(path))
        {
            return null;
        }
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            if (channel.size() < RING_OFFSET)
            {
                arena.close();
                return null;
            }
            final MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            final int ringCapacity = mapped.get(ValueLayout.JAVA_INT, RING_CAPACITY_OFFSET);
            final int maxRegions = mapped.get(ValueLayout.JAVA_INT, MAX_REGIONS_OFFSET);
            final boolean valid = mapped.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) == MAGIC &&
                mapped.get(ValueLayout.JAVA_INT, VERSION_OFFSET) == LAYOUT_VERSION &&
                (int)INT.getVolatile(mapped, READY_OFFSET) == 1 &&
                mapped.get(ValueLayout.JAVA_INT, PORT_OFFSET) == port &&
                ringCapacity > 0 && Integer.bitCount(ringCapacity) == 1 &&
                maxRegions > 0 && maxRegions <= RegionTable.MAX_REGIONS &&
                channel.size() >= tableOffset(ringCapacity) + RegionTable.areaBytes(maxRegions) &&
                Files.exists(Path.of("/proc", Integer.toString(mapped.get(ValueLayout.JAVA_INT, PID_OFFSET))));
            if (!valid)
            {
                arena.close();
                return null;
            }
            return new EndpointFile(path, arena, mapped, false, ringCapacity, maxRegions);
        }
        catch (final IOException | RuntimeException e)
        {
            arena.close();
            return null;
        }
    }

    int pid()
    {
        return pid;
    }

    int sessionId()
    {
        return sessionId;
    }

    ShmFrameRing ring()
    {
        return ring;
    }

    RegionTable regions()
    {
        return regions;
    }

    /** The owner's pulls a peer may copy part of. */
    SharedPulls sharedPulls()
    {
        return sharedPulls;
    }

    /** @return true for the file this process's endpoint created (its own ring), false for a peer's mapping. */
    boolean isOwn()
    {
        return owner;
    }

    /** True while the owner process exists (a killed owner never clears its ready flag). */
    boolean ownerAlive()
    {
        return Files.exists(Path.of("/proc", Integer.toString(pid)));
    }

    /** A peer's view: false once its owner closed the endpoint. */
    boolean isLive()
    {
        return (int)INT.getVolatile(mapped, READY_OFFSET) == 1;
    }

    @Override
    public void close()
    {
        if (!arena.scope().isAlive())
        {
            return;
        }
        if (owner)
        {
            INT.setVolatile(mapped, READY_OFFSET, 0);
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException ignored)
            {
                // A leftover file is harmless: its ready flag is 0 and its pid will be gone.
            }
        }
        arena.close();
    }

    /** Files left by killed processes (they never ran close) would hold tmpfs memory until reboot. */
    private static void removeFilesOfDeadOwners(final Path directory) throws IOException
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, FILE_PREFIX + "*"))
        {
            final ByteBuffer header = ByteBuffer.allocate((int)PID_OFFSET + 4).order(ByteOrder.nativeOrder());
            for (final Path file : files)
            {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
                {
                    header.clear();
                    final boolean complete = channel.read(header, 0) == header.capacity() &&
                        header.getLong(0) == MAGIC && header.getInt((int)PID_OFFSET) > 0;
                    if (complete && !Files.exists(Path.of("/proc", Integer.toString(header.getInt((int)PID_OFFSET)))))
                    {
                        Files.deleteIfExists(file);
                    }
                }
                catch (final IOException e)
                {
                    // Another process removed or replaced it meanwhile: nothing to clean.
                }
            }
        }
    }

    /**
     * Who holds the endpoint file of a port, read from its header without mapping it (liveness checks).
     *
     * @return the owner, or null when there is no complete endpoint file of this layout at that port.
     */
    static Owner readOwner(final Path directory, final int port)
    {
        final ByteBuffer header = ByteBuffer.allocate((int)READY_OFFSET + 4).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(pathFor(directory, port), StandardOpenOption.READ))
        {
            if (channel.read(header, 0) != header.capacity() || header.getLong((int)MAGIC_OFFSET) != MAGIC ||
                header.getInt((int)VERSION_OFFSET) != LAYOUT_VERSION || header.getInt((int)PORT_OFFSET) != port)
            {
                return null;
            }
            return new Owner(header.getInt((int)PID_OFFSET), header.getInt((int)SESSION_OFFSET),
                header.getInt((int)READY_OFFSET) == 1);
        }
        catch (final IOException e)
        {
            return null;
        }
    }

    /**
     * The header of an endpoint file.
     *
     * @param pid       the owner process.
     * @param sessionId the endpoint's session.
     * @param open      false once the owner closed the endpoint (a killed owner leaves it true).
     */
    record Owner(int pid, int sessionId, boolean open)
    {
    }

    /**
     * The endpoint files in {@code directory}, read from their headers without mapping them (for
     * {@code pinmx-admin endpoints}); files that are not endpoint files of this layout are skipped.
     */
    static List<UserEndpointFile> list(final Path directory) throws IOException
    {
        final List<UserEndpointFile> found = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return found;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, FILE_PREFIX + "*"))
        {
            final ByteBuffer header = ByteBuffer.allocate((int)MAX_REGIONS_OFFSET + 4).order(ByteOrder.nativeOrder());
            for (final Path file : files)
            {
                header.clear();
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
                {
                    if (channel.read(header, 0) != header.capacity())
                    {
                        continue;
                    }
                }
                catch (final IOException e)
                {
                    continue; // removed meanwhile
                }
                if (header.getLong((int)MAGIC_OFFSET) != MAGIC ||
                    header.getInt((int)VERSION_OFFSET) != LAYOUT_VERSION)
                {
                    continue;
                }
                final int pid = header.getInt((int)PID_OFFSET);
                found.add(new UserEndpointFile(file, header.getInt((int)PORT_OFFSET), pid,
                    header.getInt((int)SESSION_OFFSET), header.getInt((int)READY_OFFSET) == 1,
                    Files.exists(Path.of("/proc", Integer.toString(pid)))));
            }
        }
        found.sort(Comparator.comparingInt(UserEndpointFile::port));
        return found;
    }

    private static long tableOffset(final int ringCapacity)
    {
        final long end = RING_OFFSET + ShmFrameRing.areaBytes(ringCapacity);
        return (end + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
    }
}
