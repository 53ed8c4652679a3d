package io.pinmx.pin.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Final counters of endpoints that closed before their process's {@link CounterStore} was open: one small file per
 * endpoint in a directory beside the store's file ({@code FILE.pending/}). Writing one takes microseconds, where
 * opening the store first takes seconds of CPU in a fresh JVM, so a short job exits at once and its counters still
 * reach the node. The next process that opens the store for writing moves them in ({@link #moveInto});
 * {@code pinmx-admin counters} lists them with the store's snapshots until then ({@link #list}).
 */
public final class PendingCounters
{
    private static final String TEMPORARY_SUFFIX = ".tmp";

    private PendingCounters()
    {
    }

    /**
     * @param countersFile the store's file.
     * @return the directory of its pending snapshots.
     */
    public static Path directoryOf(final Path countersFile)
    {
        return countersFile.resolveSibling(countersFile.getFileName() + ".pending");
    }

    /**
     * Writes one endpoint's final snapshot, replacing an earlier pending one of the same endpoint; a reader sees the
     * whole file or none (written aside, then renamed).
     *
     * @throws UncheckedIOException naming the file if it cannot be written.
     */
    public static void write(final Path countersFile, final PublishedCounters snapshot)
    {
        final Path dir = directoryOf(countersFile);
        final Path file = dir.resolve(URLEncoder.encode(snapshot.endpoint(), StandardCharsets.UTF_8));
        final Path aside = dir.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + TEMPORARY_SUFFIX);
        try
        {
            Files.createDirectories(dir);
            Files.writeString(aside, snapshot.encode());
            try
            {
                Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final AtomicMoveNotSupportedException ex)
            {
                Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the final counters of " + snapshot.endpoint() + " to " + file +
                ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Creates nothing: a store without a pending directory has no pending snapshots.
     *
     * @return the pending snapshots beside {@code countersFile}, sorted by endpoint name.
     * @throws IllegalArgumentException naming a file that does not hold a snapshot.
     */
    public static List<PublishedCounters> list(final Path countersFile)
    {
        final List<PublishedCounters> snapshots = new ArrayList<>();
        for (final Path file : files(countersFile))
        {
            try
            {
                snapshots.add(PublishedCounters.decode(endpointOf(file), Files.readString(file)));
            }
            catch (final NoSuchFileException movedInMeanwhile)
            {
                // another process moved it into the store after the directory was read
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot read pending counters " + file + ": " + ex.getMessage(), ex);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("pending counters " + file + ": " + ex.getMessage(), ex);
            }
        }
        snapshots.sort(Comparator.comparing(PublishedCounters::endpoint));
        return snapshots;
    }

    /**
     * Publishes each pending snapshot to {@code store}, unless it holds a later one of that endpoint, and removes
     * its file.
     *
     * @return how many snapshots were published.
     */
    public static int moveInto(final CounterStore store, final Path countersFile)
    {
        int published = 0;
        for (final PublishedCounters pending : list(countersFile))
        {
            final boolean newer = store.get(pending.endpoint())
                .map(stored -> stored.publishedAtEpochMillis() > pending.publishedAtEpochMillis()).orElse(false);
            if (!newer)
            {
                store.publish(pending);
                published++;
            }
            try
            {
                Files.deleteIfExists(directoryOf(countersFile).resolve(
                    URLEncoder.encode(pending.endpoint(), StandardCharsets.UTF_8)));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot remove pending counters of " + pending.endpoint() + ": " +
                    ex.getMessage(), ex);
            }
        }
        return published;
    }

    private static List<Path> files(final Path countersFile)
    {
        final Path dir = directoryOf(countersFile);
        final List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(dir))
        {
            return files;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir))
        {
            for (final Path file : entries)
            {
                if (!file.getFileName().toString().endsWith(TEMPORARY_SUFFIX))
                {
                    files.add(file);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list pending counters in " + dir + ": " + ex.getMessage(), ex);
        }
        return files;
    }

    private static String endpointOf(final Path file)
    {
        return URLDecoder.decode(file.getFileName().toString(), StandardCharsets.UTF_8);
    }
}
