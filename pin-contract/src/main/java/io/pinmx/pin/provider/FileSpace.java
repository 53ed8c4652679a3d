package io.pinmx.pin.provider;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The memory behind a shared file, allocated for real before anyone maps it. A file sized by truncate or by mapping
 * past its end is sparse: on a full tmpfs its pages fail only when touched (SIGBUS, which the JVM reports as an
 * InternalError in whatever access touched them). Reserved at creation, running out is an error there, naming the
 * directory, the bytes asked, what is free and the setting that moves the files elsewhere.
 */
public final class FileSpace
{
    private FileSpace()
    {
    }

    /**
     * Allocates bytes [0, bytes) of an existing file (posix_fallocate); the file grows to that size if smaller.
     *
     * @param file    the file, created by the caller, who removes it when this fails.
     * @param bytes   its size, at least 1.
     * @param movedBy what chooses the file's directory (an environment variable), named by the refusal.
     * @throws IOException naming the directory, the bytes asked, the bytes free there and {@code movedBy} when the
     *                     directory has no room; naming the file and the error number on any other failure.
     */
    public static void reserve(final Path file, final long bytes, final String movedBy) throws IOException
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("bytes to reserve for " + file + " must be at least 1: " + bytes);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment captureState = Libc.allocateCaptureState(arena);
            final int fd = Libc.open(captureState, arena.allocateFrom(file.toString()), Libc.O_RDWR | Libc.O_CLOEXEC);
            if (fd < 0)
            {
                throw new IOException("cannot open " + file + " to allocate its " + bytes + " bytes: " +
                    Errno.describe(Libc.errno(captureState)));
            }
            try
            {
                int error;
                do
                {
                    error = Libc.posixFallocate(fd, 0, bytes);
                }
                while (Errno.EINTR == error);
                if (0 != error)
                {
                    throw refusal(file, bytes, movedBy, error);
                }
            }
            finally
            {
                Libc.close(captureState, fd);
            }
        }
    }

    private static IOException refusal(final Path file, final long bytes, final String movedBy, final int error)
    {
        if (Errno.ENOSPC != error && Errno.ENOMEM != error)
        {
            return new IOException("cannot allocate " + bytes + " bytes for " + file + ": " + Errno.describe(error));
        }
        final Path directory = file.toAbsolutePath().getParent();
        return new IOException(directory + " has no room for " + file.getFileName() + ": " + bytes + " bytes asked, " +
            free(directory) + " (" + Errno.describe(error) + "); set " + movedBy + " to a directory with more room");
    }

    private static String free(final Path directory)
    {
        try
        {
            final FileStore store = Files.getFileStore(directory);
            return store.getUsableSpace() + " free of " + store.getTotalSpace();
        }
        catch (final IOException ex)
        {
            return "free space unknown (" + ex.getMessage() + ")";
        }
    }
}
