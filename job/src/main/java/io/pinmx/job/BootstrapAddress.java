package io.pinmx.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Where rank 0 of a job listens for the others: PINMX_BOOTSTRAP is either {@code host:port} (rank 0 binds
 * that port) or {@code file:PATH} (rank 0 binds any free port at {@link RankAddress#listenAddress}: PINMX_BOOTSTRAP_HOST,
 * else PINMX_ADDRESS or PINMX_IFACE, else the interface of the default route, and publishes {@code host:port} in
 * PATH, a file every rank can read: pinmx-run uses one in /tmp on one host and in the home directory under a
 * launcher). Rank 0 withdraws the file once every rank has joined, or when it gives up waiting.
 */
public final class BootstrapAddress
{
    public static final String VARIABLE = "PINMX_BOOTSTRAP";
    public static final String HOST_VARIABLE = "PINMX_BOOTSTRAP_HOST";
    private static final String FILE_PREFIX = "file:";
    private static final long FILE_POLL_MS = 5;

    private final String spec;
    private final Path file;
    private final String host;
    private final int port;

    private BootstrapAddress(final String spec, final Path file, final String host, final int port)
    {
        this.spec = spec;
        this.file = file;
        this.host = host;
        this.port = port;
    }

    /**
     * @throws IllegalArgumentException naming PINMX_BOOTSTRAP if it is missing or malformed.
     */
    public static BootstrapAddress fromEnvironment(final Map<String, String> env)
    {
        final String spec = env.get(VARIABLE);
        if (null == spec || spec.isBlank())
        {
            throw new IllegalArgumentException(VARIABLE + " is not set: it names where rank 0 listens " +
                "(host:port, or file:PATH on one host; bin/pinmx-run sets it)");
        }
        if (spec.startsWith(FILE_PREFIX))
        {
            final String path = spec.substring(FILE_PREFIX.length());
            if (path.isEmpty())
            {
                throw new IllegalArgumentException(VARIABLE + "=" + spec + " names no file");
            }
            return new BootstrapAddress(spec, Path.of(path), RankAddress.listenAddress(env), 0);
        }
        final int colon = spec.lastIndexOf(':');
        if (colon <= 0)
        {
            throw new IllegalArgumentException(VARIABLE + "=" + spec + " is neither host:port nor file:PATH");
        }
        final int port;
        try
        {
            port = Integer.parseInt(spec.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(VARIABLE + "=" + spec + " has no port number after ':'");
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException(VARIABLE + "=" + spec + ": port " + port + " is not in 1..65535");
        }
        return new BootstrapAddress(spec, null, spec.substring(0, colon), port);
    }

    /**
     * @return the address rank 0 binds.
     */
    public InetSocketAddress bindAddress()
    {
        return new InetSocketAddress(host, port);
    }

    /**
     * Called by rank 0 once it listens: publishes the bound address when it goes by file.
     */
    public void publish(final InetSocketAddress bound)
    {
        if (null == file)
        {
            return;
        }
        try
        {
            final Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, bound.getHostString() + ":" + bound.getPort(), StandardCharsets.US_ASCII);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bootstrap: cannot publish rank 0's address in " + file, ex);
        }
    }

    /**
     * Called by rank 0 when the rendezvous is over, joined or failed: removes the published file, if any.
     */
    public void withdraw()
    {
        if (null == file)
        {
            return;
        }
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bootstrap: cannot remove rank 0's address file " + file, ex);
        }
    }

    /**
     * @return the file rank 0 publishes its address in, or null when PINMX_BOOTSTRAP is host:port.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Where the other ranks find rank 0, waiting for the file to appear until the deadline.
     *
     * @return null if the file did not appear in time.
     */
    public InetSocketAddress awaitRankZero(final long deadlineNs) throws InterruptedException
    {
        if (null == file)
        {
            return new InetSocketAddress(host, port);
        }
        while (!Files.exists(file))
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return null;
            }
            Thread.sleep(FILE_POLL_MS);
        }
        try
        {
            final String published = Files.readString(file, StandardCharsets.US_ASCII).trim();
            final int colon = published.lastIndexOf(':');
            return new InetSocketAddress(published.substring(0, colon), Integer.parseInt(published.substring(colon + 1)));
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IllegalStateException("bootstrap: cannot read rank 0's address from " + file, ex);
        }
    }

    @Override
    public String toString()
    {
        return spec;
    }
}
