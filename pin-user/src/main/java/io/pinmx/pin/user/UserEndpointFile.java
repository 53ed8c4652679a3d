package io.pinmx.pin.user;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A user-driver endpoint of this host as its shared-memory file describes it (endpoints with the same-host path
 * on have one, see {@link UserDriverOptions#sameHost()}).
 *
 * @param file       the file.
 * @param port       the endpoint's UDP port.
 * @param pid        the owning process.
 * @param sessionId  the endpoint's session id.
 * @param open       true until the owner closed the endpoint.
 * @param ownerAlive true while the owning process exists (a killed owner leaves its file open-flagged).
 */
public record UserEndpointFile(Path file, int port, int pid, int sessionId, boolean open, boolean ownerAlive)
{
    /**
     * @return true for an endpoint that can take traffic now.
     */
    public boolean live()
    {
        return open && ownerAlive;
    }

    /**
     * @param directory where endpoint files live ({@link UserDriverOptions#shmDirectory()}, /dev/shm by default).
     * @return the endpoint files there, by port.
     * @throws IOException when the directory cannot be listed.
     */
    public static List<UserEndpointFile> list(final Path directory) throws IOException
    {
        return EndpointFile.list(directory);
    }
}
