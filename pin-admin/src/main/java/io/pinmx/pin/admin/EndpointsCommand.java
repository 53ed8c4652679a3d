package io.pinmx.pin.admin;

import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.user.UserEndpointFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code endpoints}: the endpoints open on this host, the user-space provider's from their shared-memory files
 * (open ones whose process runs; {@code --all} adds stale files of closed or killed endpoints), the kernel
 * module's from its debugfs listing.
 */
final class EndpointsCommand
{
    private final Path shmDirectory;
    private final KernelModuleStatus module;

    EndpointsCommand(final Path shmDirectory, final KernelModuleStatus module)
    {
        this.shmDirectory = shmDirectory;
        this.module = module;
    }

    Report run(final boolean all)
    {
        final StringBuilder text = new StringBuilder();
        final List<Object> user = new ArrayList<>();
        if (!Files.isDirectory(shmDirectory))
        {
            throw new IllegalStateException("--shm-dir " + shmDirectory + ": no such directory");
        }
        final List<UserEndpointFile> files;
        try
        {
            files = UserEndpointFile.list(shmDirectory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list endpoint files in " + shmDirectory + ": " + ex.getMessage(), ex);
        }
        for (final UserEndpointFile f : files)
        {
            if (!all && !f.live())
            {
                continue;
            }
            final String state = f.live() ? "open" : f.ownerAlive() ? "closed" : "owner gone";
            text.append("user udp port ").append(f.port()).append(" pid ").append(f.pid()).append(" session 0x")
                .append(Integer.toHexString(f.sessionId())).append(' ').append(state).append('\n');
            user.add(JsonWriter.object("port", f.port(), "pid", f.pid(), "session", f.sessionId(), "state", state,
                "file", f.file().toString()));
        }
        if (user.isEmpty())
        {
            text.append("no user-driver endpoints in ").append(shmDirectory).append('\n');
        }

        final Map<String, Object> kernel;
        if (!module.loaded())
        {
            kernel = JsonWriter.object("loaded", false);
        }
        else if (null != module.debugfsProblem())
        {
            text.append("kernel endpoints: unknown: ").append(module.debugfsProblem()).append('\n');
            kernel = JsonWriter.object("loaded", true, "problem", module.debugfsProblem());
        }
        else
        {
            final List<Object> bound = new ArrayList<>();
            for (final KernelModuleStatus.BoundEndpoint e : module.endpoints())
            {
                text.append("kernel ").append(e.iface()).append(" index ").append(e.index()).append(" id ")
                    .append(e.id()).append(" session 0x").append(Integer.toHexString(e.sessionId()))
                    .append(" pin mode ").append(e.pinMode()).append('\n');
                bound.add(JsonWriter.object("interface", e.iface(), "index", e.index(), "id", e.id(),
                    "session", e.sessionId(), "pinMode", e.pinMode()));
            }
            if (bound.isEmpty())
            {
                text.append("no kernel endpoints bound\n");
            }
            kernel = JsonWriter.object("loaded", true, "endpoints", bound);
        }
        return new Report(JsonWriter.object("user", JsonWriter.object("directory", shmDirectory.toString(),
            "endpoints", user), "kernel", kernel), text.toString());
    }
}
