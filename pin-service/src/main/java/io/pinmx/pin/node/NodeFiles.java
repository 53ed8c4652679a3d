package io.pinmx.pin.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.openhft.chronicle.map.ChronicleMap;

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
     * processes opening the same file share its entries.
     *
     * @param file         persisted file.
     * @param name         map name, for Chronicle's diagnostics.
     * @param entries      most entries.
     * @param averageKey   a typical key, for sizing.
     * @param averageValue a typical value, for sizing.
     * @return the map.
     * @throws UncheckedIOException naming the file when it cannot be created or mapped.
     */
    static ChronicleMap<CharSequence, CharSequence> openMap(
        final Path file, final String name, final long entries, final String averageKey, final String averageValue)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            return ChronicleMap.of(CharSequence.class, CharSequence.class)
                .name(name)
                .entries(entries)
                .averageKey(averageKey)
                .averageValue(averageValue)
                .maxBloatFactor(4.0)
                .createPersistedTo(file.toFile());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open " + name + " file " + file + ": " + ex.getMessage(), ex);
        }
    }
}
