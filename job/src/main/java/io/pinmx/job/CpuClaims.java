package io.pinmx.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The host's record of which CPUs polling ranks are bound to, so that a second job started while one runs does not
 * bind its ranks onto the first one's CPUs unknowingly, as mpirun and srun keep jobs apart. One file per claimed CPU
 * ({@code cpu-N} in a directory under the shm directory), created atomically and holding the owner's pid and start
 * time; a claim whose process is gone (or whose pid now names another process) is stale and taken over. Threads of one
 * process share their claims (counted here), so a process's own rebinding never moves it.
 */
final class CpuClaims
{
    /** Under PINMX_SHM_DIR: every job of the host that binds sees the same directory. */
    static final String DIRECTORY_NAME = "pinmx-cpus";
    private static final Map<Path, Integer> HELD_HERE = new HashMap<>();

    private final Path directory;

    CpuClaims(final Path directory)
    {
        this.directory = directory;
    }

    /**
     * What a claim came to.
     *
     * @param cpu       the CPU to bind to.
     * @param claimed   true when this process now holds its claim (give it back with {@link #release}).
     * @param heldByPid the live process holding the preferred CPU, or -1 when it was free.
     */
    record Outcome(int cpu, boolean claimed, long heldByPid)
    {
    }

    /**
     * Claims the CPU at {@code preferred} in {@code cpus}, else the next free one in order; when every one is held by
     * another live process, claims none and returns the preferred CPU with the pid holding it.
     *
     * @throws UncheckedIOException naming the directory when it cannot be made or written.
     */
    Outcome claim(final int[] cpus, final int preferred)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot make the CPU claims directory " + directory + ": " + ex.getMessage(),
                ex);
        }
        long holder = -1;
        for (int i = 0; i < cpus.length; i++)
        {
            final int cpu = cpus[(preferred + i) % cpus.length];
            final long other = tryClaim(cpu);
            if (other < 0)
            {
                return new Outcome(cpu, true, holder);
            }
            if (0 == i)
            {
                holder = other;
            }
        }
        return new Outcome(cpus[preferred % cpus.length], false, holder);
    }

    /** Gives back a claim {@link #claim} made; the file goes when this process's last user of it releases it. */
    void release(final int cpu)
    {
        final Path file = fileOf(cpu);
        synchronized (HELD_HERE)
        {
            final int users = HELD_HERE.getOrDefault(file, 0) - 1;
            if (users > 0)
            {
                HELD_HERE.put(file, users);
                return;
            }
            HELD_HERE.remove(file);
            try
            {
                if (owner(file).filter(o -> o.equals(Owner.self())).isPresent())
                {
                    Files.deleteIfExists(file);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot release the claim " + file + ": " + ex.getMessage(), ex);
            }
        }
    }

    /** @return -1 when this process holds the CPU's claim now, else the pid of the live process that holds it. */
    private long tryClaim(final int cpu)
    {
        final Path file = fileOf(cpu);
        synchronized (HELD_HERE)
        {
            if (HELD_HERE.containsKey(file))
            {
                HELD_HERE.merge(file, 1, Integer::sum);
                return -1;
            }
            for (int attempt = 0; attempt < 2; attempt++)
            {
                final Path aside = directory.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
                try
                {
                    // Written aside, then linked in: a claim is seen whole or not at all.
                    Files.writeString(aside, Owner.self().text(), StandardCharsets.US_ASCII);
                    Files.createLink(file, aside);
                    HELD_HERE.put(file, 1);
                    return -1;
                }
                catch (final FileAlreadyExistsException held)
                {
                    final Optional<Owner> owner = owner(file);
                    if (owner.isPresent() && owner.get().alive())
                    {
                        return owner.get().pid();
                    }
                    // stale: its process is gone; one more try after removing it
                    delete(file);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException("cannot claim " + file + ": " + ex.getMessage(), ex);
                }
                finally
                {
                    delete(aside);
                }
            }
            return owner(file).map(Owner::pid).orElse(-1L);
        }
    }

    private Path fileOf(final int cpu)
    {
        return directory.resolve("cpu-" + cpu);
    }

    private static void delete(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** @return the claim's owner; empty when the file is gone or does not name one. */
    private static Optional<Owner> owner(final Path file)
    {
        try
        {
            return Owner.parse(Files.readString(file, StandardCharsets.US_ASCII));
        }
        catch (final NoSuchFileException gone)
        {
            return Optional.empty();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the claim " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** A process, told apart from a later one with the same pid by its start time. */
    private record Owner(long pid, long startMillis)
    {
        static Owner self()
        {
            return of(ProcessHandle.current());
        }

        static Owner of(final ProcessHandle process)
        {
            return new Owner(process.pid(), process.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L));
        }

        static Optional<Owner> parse(final String text)
        {
            final String[] f = text.trim().split(" ");
            try
            {
                return 2 == f.length ? Optional.of(new Owner(Long.parseLong(f[0]), Long.parseLong(f[1]))) :
                    Optional.empty();
            }
            catch (final NumberFormatException ex)
            {
                return Optional.empty();
            }
        }

        boolean alive()
        {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(Owner::of).filter(this::equals).isPresent();
        }

        String text()
        {
            return pid + " " + startMillis;
        }
    }
}
