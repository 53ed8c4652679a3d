package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileSpaceTest
{
    private static final long PAGE_BYTES = 4096;
    private static final String VARIABLE = "SPACE_TEST_DIR";

    @TempDir
    Path dir;

    @Test
    void reservedFileTakesItsMemoryAtOnceAndARefusalNamesDirectorySizesAndVariable() throws Exception
    {
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(dir, 16 * PAGE_BYTES))
        {
            final Path fits = Files.createFile(tmpfs.directory().resolve("fits"));
            final long freeBefore = tmpfs.freeBytes();
            FileSpace.reserve(fits, 10 * PAGE_BYTES, VARIABLE);
            assertEquals(10 * PAGE_BYTES, Files.size(fits));
            assertEquals(freeBefore - 10 * PAGE_BYTES, tmpfs.freeBytes(), "the pages are taken before any touch");

            final Path tooLarge = Files.createFile(tmpfs.directory().resolve("too-large"));
            final long freeNow = tmpfs.freeBytes();
            final IOException refused = assertThrows(IOException.class,
                () -> FileSpace.reserve(tooLarge, 8 * PAGE_BYTES, VARIABLE));
            final String message = refused.getMessage();
            assertTrue(message.startsWith(tmpfs.directory() + " has no room for too-large: " + 8 * PAGE_BYTES +
                " bytes asked, " + freeNow + " free of " + 16 * PAGE_BYTES + " (ENOSPC"), message);
            assertTrue(message.endsWith("set " + VARIABLE + " to a directory with more room"), message);
            assertEquals(freeNow, tmpfs.freeBytes(), "a refusal keeps no page");
            assertEquals(0, Files.size(tooLarge));
        }
    }

    @Test
    void badArgumentsAreRefusedNamingThem() throws IOException
    {
        final Path file = Files.createFile(dir.resolve("f"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FileSpace.reserve(file, 0, VARIABLE))
            .getMessage().contains("bytes to reserve for " + file + " must be at least 1: 0"));
        final Path missing = dir.resolve("missing");
        final IOException refused = assertThrows(IOException.class, () -> FileSpace.reserve(missing, 1, VARIABLE));
        assertTrue(refused.getMessage().startsWith("cannot open " + missing + " to allocate its 1 bytes: ENOENT"),
            refused.getMessage());
        assertEquals(0, Files.size(file));
    }
}
