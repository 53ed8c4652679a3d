package io.pinmx.pin.node;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

/**
 * Where the node-wide files live and how they are opened. Every process of the host must agree
 * on the paths, so they come from one place: system properties {@value #PEERS_FILE_PROPERTY} and
 * {@value #COUNTERS_FILE_PROPERTY}, defaulting to files under /dev/shm/pinmx.
 */
public final class NodeFiles
{
    /** System property overriding the peer table file. */
    public static final String PEERS_FILE_PROPERTY = "pinmx.peers.file";
    /** System property overriding the published counters file. */
    public static final String COUNTERS_FILE_PROPERTY = "pinmx.counters.file";
    /** Longest wait for a node file to open: first use in a JVM generates and compiles Chronicle code. */
    public static final Duration OPEN_TIMEOUT = Duration.ofSeconds(60);
    /** Default directory of node-wide files: tmpfs, shared by the host's processes, gone at reboot. */
    public static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm/pinmx");

    private NodeFiles()
    {
    }

    /**
     * @return the peer table file of this host.
     */
    public static Path peersFile()
    {
        return Path.of(System.getProperty(PEERS_FILE_PROPERTY, DEFAULT_DIRECTORY.resolve("peers.dat").toString()));
    }

    /**
     * @return the published counters file of this host.
     */
    public static Path countersFile()
    {
        return Path.of(System.getProperty(COUNTERS_FILE_PROPERTY, DEFAULT_DIRECTORY.resolve("counters.dat").toString()));
    }

    /**
     * Open (creating if absent) a string-to-string Chronicle Map persisted to {@code file}; other
     * processes opening the same file share its entries. Chronicle waits forever for a file whose
     * header never becomes ready (not a Chronicle Map file, or its creator died while writing it),
     * so the open runs on a daemon thread and gives up after {@code timeout}.
     *
     * @param file         persisted file.
     * @param name         map name, for Chronicle's diagnostics.
     * @param movedBy      the system property that names another file, for the refusal of a full directory.
     * @param entries      most entries.
     * @param averageKey   a typical key, for sizing.
     * @param averageValue a typical value, for sizing.
     * @param timeout      longest wait for the file to open.
     * @return the map.
     * @throws UncheckedIOException naming the file when it cannot be created, mapped or opened in time; naming the
     *                              directory, the bytes asked, what is free and {@code movedBy} when the directory
     *                              has no room for a new file (which is then removed).
     * @throws IllegalStateException naming the JVM flags Chronicle Map needs when this JVM lacks some.
     */
    static ChronicleMap<CharSequence, CharSequence> openMap(
        final Path file,
        final String name,
        final String movedBy,
        final long entries,
        final String averageKey,
        final String averageValue,
        final Duration timeout)
    {
        ChronicleFlags.require(name + " file " + file);
        final CompletableFuture<ChronicleMap<CharSequence, CharSequence>> opening = new CompletableFuture<>();
        final boolean creating = !Files.exists(file);
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            final ChronicleMapBuilder<CharSequence, CharSequence> builder =
                ChronicleMap.of(CharSequence.class, CharSequence.class)
                    .name(name)
                    .entries(entries)
                    .averageKey(averageKey)
                    .averageValue(averageValue)
                    .maxBloatFactor(4.0);
            Thread.ofPlatform().daemon().name("pinmx-open-" + name).start(() ->
            {
                try
                {
                    opening.complete(builder.createPersistedTo(file.toFile()));
                }
                catch (final Throwable ex)
                {
                    opening.completeExceptionally(ex);
                }
            });
            return opening.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (final TimeoutException ex)
        {
            opening.thenAccept(ChronicleMap::close);
            throw new UncheckedIOException(new IOException("timed out after " + timeout.toMillis() + " ms opening " + name +
                " file " + file + ": not a Chronicle Map file, or its creator died while initialising it; remove it"));
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            final IOException io = cause instanceof IOException given ? given : new IOException(cause);
            if (creating)
            {
                throw notCreated(file, name, movedBy, io);
            }
            throw new UncheckedIOException("cannot open " + name + " file " + file + ": " + cause, io);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open " + name + " file " + file + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException("interrupted opening " + name + " file " + file));
        }
    }

    /**
     * Chronicle allocates a new file's memory at creation (fallocate) and sizes the file first, so a directory
     * without room refuses it there; the file it leaves has a header never made ready, which every later open
     * would wait on until its timeout, so it goes.
     */
    private static UncheckedIOException notCreated(
        final Path file, final String name, final String movedBy, final IOException cause)
    {
        long asked = 0;
        try
        {
            asked = Files.size(file);
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            cause.addSuppressed(ex);
        }
        final Path directory = file.toAbsolutePath().getParent();
        try
        {
            final FileStore store = Files.getFileStore(directory);
            if (asked > store.getUsableSpace())
            {
                return new UncheckedIOException(directory + " has no room for " + name + " file " +
                    file.getFileName() + ": " + asked + " bytes asked, " + store.getUsableSpace() + " free of " +
                    store.getTotalSpace() + " (" + cause.getMessage() + "); set the system property " + movedBy +
                    " to a file in a directory with more room", cause);
            }
        }
        catch (final IOException ex)
        {
            cause.addSuppressed(ex);
        }
        return new UncheckedIOException("cannot create " + name + " file " + file + ": " + cause.getMessage(), cause);
    }
}
