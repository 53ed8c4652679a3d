package io.pinmx.pin.provider;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A tmpfs of a few pages mounted for one test, to make shared files run out of room for real; unmounted at close.
 * Mounting needs root: a test without it is skipped (JUnit assumption). Shipped in pin-contract's test-jar for the
 * modules above.
 */
public final class SmallTmpfs implements AutoCloseable
{
    private static final long COMMAND_DEADLINE_S = 30;

    private final Path directory;

    private SmallTmpfs(final Path directory)
    {
        this.directory = directory;
    }

    /**
     * @param directory an empty directory to mount on.
     * @param bytes     the tmpfs's size (whole pages).
     */
    public static SmallTmpfs mount(final Path directory, final long bytes) throws IOException, InterruptedException
    {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        run(List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes + ",mode=1777", "tmpfs", directory.toString()));
        return new SmallTmpfs(directory);
    }

    /** Grows or shrinks the tmpfs, keeping its files. */
    public void resize(final long bytes) throws IOException, InterruptedException
    {
        run(List.of("mount", "-o", "remount,size=" + bytes, directory.toString()));
    }

    public Path directory()
    {
        return directory;
    }

    /** The bytes still free in the tmpfs. */
    public long freeBytes() throws IOException
    {
        final FileStore store = Files.getFileStore(directory);
        return store.getUsableSpace();
    }

    /** The files in the tmpfs, by name. */
    public List<String> files() throws IOException
    {
        try (var listing = Files.list(directory))
        {
            return listing.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * @throws IOException when the tmpfs was busy (a file in it still mapped or open): it is detached all the same
     *                     (lazily), so nothing stays mounted after a failed test.
     */
    @Override
    public void close() throws IOException, InterruptedException
    {
        try
        {
            run(List.of("umount", directory.toString()));
        }
        catch (final IOException busy)
        {
            run(List.of("umount", "--lazy", directory.toString()));
            throw busy;
        }
    }

    private static void run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(COMMAND_DEADLINE_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within " + COMMAND_DEADLINE_S + " s");
        }
        final String output = new String(process.getInputStream().readAllBytes());
        if (0 != process.exitValue())
        {
            throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
        }
    }
}
