package io.pinmx.rma;

import io.pinmx.pin.provider.FileSpace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file in a tmpfs that ranks on one host map to share memory: created (zeroed, page-aligned mapping, its memory
 * allocated before it is mapped, so that a full directory refuses it here rather than faulting at a later touch) by
 * the rank that owns it, mapped by the others, removed by its owner. The mapping lives as long as the arena given.
 */
final class SharedFile
{
    private SharedFile()
    {
    }

    /**
     * @throws UncheckedIOException naming the file if it exists already or cannot be mapped; naming the directory,
     *                              the bytes asked, what is free and {@value RmaOptions#DIRECTORY_VARIABLE} if the
     *                              directory has no room for it. A refused file is removed.
     */
    static MemorySegment create(final Path file, final long bytes, final Arena arena)
    {
        final FileChannel ch;
        try
        {
            ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("creating shared file " + file + ": " + ex, ex);
        }
        try (ch)
        {
            FileSpace.reserve(file, bytes, RmaOptions.DIRECTORY_VARIABLE);
            return map(ch, file, bytes, arena);
        }
        catch (final IOException ex)
        {
            remove(file);
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
    }

    private static MemorySegment map(final FileChannel ch, final Path file, final long bytes, final Arena arena)
        throws IOException
    {
        try
        {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
        catch (final IOException ex)
        {
            throw new IOException("mapping shared file " + file + " of " + bytes + " bytes: " + ex, ex);
        }
    }

    /**
     * @return the mapping, or null if the file does not exist (its owner is on another host).
     * @throws UncheckedIOException naming the file if it exists but cannot be mapped.
     */
    static MemorySegment openIfPresent(final Path file, final long bytes, final Arena arena)
    {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            if (ch.size() < bytes)
            {
                throw new IOException("holds " + ch.size() + " bytes, expected " + bytes);
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("mapping shared file " + file + ": " + ex, ex);
        }
    }

    static void remove(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignored)
        {
            // a leftover file in a tmpfs costs memory only; the job's other files still go
        }
    }
}
