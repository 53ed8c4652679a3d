package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.SmallTmpfs;
import io.pinmx.pin.spi.DriverError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EndpointFileTest
{
    @TempDir
    Path directory;

    @Test
    void peerSeesOwnerSessionUntilCloseAndFilesOfDeadOwnersAreRemoved() throws IOException
    {
        final Path deadOwner = EndpointFile.pathFor(directory, 1111);
        Files.write(deadOwner, header(unusedPid()));
        final Path foreign = directory.resolve(EndpointFile.FILE_PREFIX + "2222");
        Files.write(foreign, new byte[] {1, 2, 3});
        final Path beingCreated = EndpointFile.pathFor(directory, 5555);
        Files.write(beingCreated, header(0));

        try (EndpointFile owner = EndpointFile.create(directory, 3333, 0xABCD, 1 << 16, 4))
        {
            assertFalse(Files.exists(deadOwner), "file of a dead process removed");
            assertTrue(Files.exists(foreign), "a file that is not ours is left alone");
            assertTrue(Files.exists(beingCreated), "a file whose owner has not written its pid yet is left alone");
            final EndpointFile peer = EndpointFile.openPeer(directory, 3333);
            assertNotNull(peer);
            try (peer)
            {
                assertEquals(0xABCD, peer.sessionId());
                assertEquals(Libc.pid(), peer.pid());
                assertTrue(peer.isLive() && peer.ownerAlive());
                owner.close();
                assertFalse(peer.isLive(), "owner's close is visible through an existing mapping");
            }
            assertNull(EndpointFile.openPeer(directory, 3333), "file gone after close");
        }
        assertNull(EndpointFile.openPeer(directory, 4444), "no file, no peer");
    }

    @Test
    void anEndpointWhoseFileDoesNotFitIsRefusedNamingDirectoryAndSizesAndLeavesNoFile() throws Exception
    {
        final int ringBytes = 1 << 16;
        final int maxRegions = 4;
        final long fileBytes = EndpointFile.fileBytes(ringBytes, maxRegions);
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(Files.createDirectory(directory.resolve("small")), 8 * 1024))
        {
            final String expected = tmpfs.directory() + " has no room for " + EndpointFile.FILE_PREFIX;
            final IOException refused = assertThrows(IOException.class,
                () -> EndpointFile.create(tmpfs.directory(), 3333, 1, ringBytes, maxRegions));
            assertTrue(refused.getMessage().startsWith(expected + "3333: " + fileBytes + " bytes asked, 8192 free of " +
                "8192 (ENOSPC"), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("set PINMX_SHM_DIR to a directory with more room"),
                refused.getMessage());
            assertEquals(List.of(), tmpfs.files());

            final UserDriverOptions options = UserDriverOptions.defaults().withCountersFile(null)
                .withShmDirectory(tmpfs.directory()).withRingBytes(ringBytes, 1 << 18).withMaxRegions(maxRegions);
            try (OpenedEndpoints endpoints = new OpenedEndpoints())
            {
                OpenedEndpoints.expect(DriverError.SYSTEM, expected, () -> endpoints.open(options));
            }
            assertEquals(List.of(), tmpfs.files());
            assertEquals(8192, tmpfs.freeBytes(), "a refusal keeps no page");
        }
    }

    @Test
    void theDirectoryOfEndpointFilesComesFromPinmxShmDir() throws IOException
    {
        assertEquals(Path.of("/dev/shm"), UserDriverOptions.shmDirectory(Map.of()));
        assertEquals(Path.of("/dev/shm"), UserDriverOptions.shmDirectory(Map.of("PINMX_SHM_DIR", "")));
        assertEquals(directory, UserDriverOptions.shmDirectory(Map.of("PINMX_SHM_DIR", directory.toString())));
        final Path file = Files.createFile(directory.resolve("a-file"));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> UserDriverOptions.shmDirectory(Map.of("PINMX_SHM_DIR", file.toString())));
        assertEquals("PINMX_SHM_DIR=" + file + " is not a directory", refused.getMessage());
    }

    private static byte[] header(final int pid)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
        buffer.putLong(0, 0x50494E4D58455031L);
        buffer.putInt(8, 1);
        buffer.putInt(12, pid);
        return buffer.array();
    }

    private static int unusedPid()
    {
        int pid = 4_000_000;
        while (Files.exists(Path.of("/proc", Integer.toString(pid))))
        {
            pid--;
        }
        return pid;
    }
}
