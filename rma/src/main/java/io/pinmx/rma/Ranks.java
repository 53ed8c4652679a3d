package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The job's ranks as this rank sees them: how each is reached ({@link RankTier}), whether a rank on this host is
 * still alive, and each rank's lock stripes, access-epoch gate and message-address slot (in its control file, mapped
 * here for ranks on this host). Built
 * collectively at start: every rank creates a control file naming its pid and a random nonce; a rank whose file
 * this rank can map and whose nonce matches is on this host. Control files are removed as soon as every rank has
 * looked (mappings stay), so a killed job leaves nothing behind.
 */
final class Ranks implements AutoCloseable
{
    static final String FILE_PREFIX = "pinmx-rma-";
    private static final long MAGIC = 0x706d_7872_6d61_0001L;
    private static final long HEADER_BYTES = 4096;
    /** The header's last part: where the rank publishes its endpoint for two-sided messages. */
    private static final long ADDRESS_SLOT_OFFSET = HEADER_BYTES - MessageAddresses.SLOT_BYTES;
    private static final long STRIPE_COUNT = 1024;
    private static final long STRIPES_BYTES = STRIPE_COUNT * Long.BYTES;
    /** What each rank all-gathers at start: its pid and nonce, then why it could not create its control file. */
    private static final int ANNOUNCEMENT_BYTES = 2 * Long.BYTES;

    private final Job job;
    private final String jobToken;
    private final Path directory;
    private final RankTier[] tiers;
    private final long[] pids;
    private final LockStripes[] stripes;
    private final EpochGate[] gates;
    /** Each rank's message-address slot; null for a rank reached through the driver. */
    private final MemorySegment[] addressSlots;
    /** Whether each rank runs on this host, whichever tier reaches it. */
    private final boolean[] sameHost;
    /** 1 once the watcher saw the rank's process gone; read by every operation on a same-host rank. */
    private final AtomicIntegerArray dead;
    private final LivenessWatcher watcher;

    private Ranks(final Job job, final String jobToken, final Path directory, final RankTier[] tiers, final long[] pids,
        final LockStripes[] stripes, final EpochGate[] gates, final MemorySegment[] addressSlots,
        final boolean[] sameHost)
    {
        this.job = job;
        this.jobToken = jobToken;
        this.directory = directory;
        this.tiers = tiers;
        this.pids = pids;
        this.stripes = stripes;
        this.gates = gates;
        this.addressSlots = addressSlots;
        this.sameHost = sameHost;
        this.dead = new AtomicIntegerArray(tiers.length);
        this.watcher = new LivenessWatcher(tiers, pids, dead);
    }

    /**
     * Collective.
     *
     * @param sharedMemory false: every other rank is reached through the driver, even on this host.
     * @throws RmaException on every rank alike, naming the rank and why, when a rank could not create its control
     *                      file (its directory has no room for it): every rank then removes its own.
     */
    static Ranks discover(final Job job, final Path directory, final boolean sharedMemory, final Arena arena)
    {
        final byte[] token = job.broadcast(0, Long.toHexString(ThreadLocalRandom.current().nextLong()).getBytes());
        final String jobToken = new String(token);
        final long nonce = ThreadLocalRandom.current().nextLong();
        final long pid = ProcessHandle.current().pid();
        final Path mine = controlFile(directory, jobToken, job.rank());
        final long controlBytes = controlBytes(job.size());
        MemorySegment control = null;
        byte[] refusal = new byte[0];
        try
        {
            control = SharedFile.create(mine, controlBytes, arena);
            control.set(ValueLayout.JAVA_LONG, 8, pid);
            control.set(ValueLayout.JAVA_LONG, 16, nonce);
            control.set(ValueLayout.JAVA_LONG, 0, MAGIC);
        }
        catch (final RuntimeException ex)
        {
            // The others are on their way into the all-gather: they learn of it there instead of waiting for us.
            refusal = ("rank " + job.rank() + " could not create its control file: " + ex.getMessage())
                .getBytes(StandardCharsets.UTF_8);
        }
        final List<byte[]> all;
        try
        {
            all = job.allGather(ByteBuffer.allocate(ANNOUNCEMENT_BYTES + refusal.length).putLong(pid).putLong(nonce)
                .put(refusal).array());
            refuseIfAnyRankCouldNot(all);
        }
        catch (final RuntimeException ex)
        {
            SharedFile.remove(mine);
            throw ex;
        }
        final int size = job.size();
        final RankTier[] tiers = new RankTier[size];
        final long[] pids = new long[size];
        final LockStripes[] stripes = new LockStripes[size];
        final EpochGate[] gates = new EpochGate[size];
        final MemorySegment[] addressSlots = new MemorySegment[size];
        final boolean[] sameHost = new boolean[size];
        // An empty slice of a rank reached through the driver is "mapped" (as nothing) and takes this gate, never
        // opened: a zero-byte operation on it has nothing to exclude.
        final EpochGate neverOpened = new EpochGate(arena.allocate(EpochGate.bytes(size), Long.BYTES), size + 1);
        try
        {
            for (int r = 0; r < size; r++)
            {
                final ByteBuffer b = ByteBuffer.wrap(all.get(r));
                pids[r] = b.getLong();
                final long theirNonce = b.getLong();
                if (r == job.rank())
                {
                    tiers[r] = RankTier.SELF;
                    sameHost[r] = true;
                    stripes[r] = stripes(control);
                    gates[r] = gate(control, size);
                    addressSlots[r] = addressSlot(control);
                    continue;
                }
                // Looked for even with the shared-memory tier off: ARMCI_Same_node asks where a rank runs.
                final MemorySegment theirs =
                    SharedFile.openIfPresent(controlFile(directory, jobToken, r), controlBytes, arena);
                sameHost[r] = null != theirs && MAGIC == theirs.get(ValueLayout.JAVA_LONG, 0) &&
                    theirNonce == theirs.get(ValueLayout.JAVA_LONG, 16);
                if (sharedMemory && sameHost[r])
                {
                    tiers[r] = RankTier.SHARED_MEMORY;
                    stripes[r] = stripes(theirs);
                    gates[r] = gate(theirs, size);
                    addressSlots[r] = addressSlot(theirs);
                }
                else
                {
                    tiers[r] = RankTier.DRIVER;
                    gates[r] = neverOpened;
                }
            }
            job.barrier();
        }
        finally
        {
            SharedFile.remove(mine);
        }
        return new Ranks(job, jobToken, directory, tiers, pids, stripes, gates, addressSlots, sameHost);
    }

    /**
     * A control file: a header (magic, pid, nonce; the message-address slot at its end), the lock stripes, then the
     * access-epoch gate.
     */
    private static long controlBytes(final int ranks)
    {
        return HEADER_BYTES + STRIPES_BYTES + EpochGate.bytes(ranks);
    }

    private static LockStripes stripes(final MemorySegment control)
    {
        return new LockStripes(control.asSlice(HEADER_BYTES, STRIPES_BYTES));
    }

    private static MemorySegment addressSlot(final MemorySegment control)
    {
        return control.asSlice(ADDRESS_SLOT_OFFSET, MessageAddresses.SLOT_BYTES);
    }

    private static EpochGate gate(final MemorySegment control, final int ranks)
    {
        return new EpochGate(control.asSlice(HEADER_BYTES + STRIPES_BYTES, EpochGate.bytes(ranks)), ranks + 1);
    }

    /**
     * @throws RmaException with every rank's refusal in rank order, if any rank sent one after its pid and nonce.
     */
    private static void refuseIfAnyRankCouldNot(final List<byte[]> all)
    {
        final StringBuilder refusals = new StringBuilder();
        for (final byte[] theirs : all)
        {
            if (theirs.length > ANNOUNCEMENT_BYTES)
            {
                refusals.append(refusals.isEmpty() ? "" : "; ").append(new String(theirs, ANNOUNCEMENT_BYTES,
                    theirs.length - ANNOUNCEMENT_BYTES, StandardCharsets.UTF_8));
            }
        }
        if (!refusals.isEmpty())
        {
            throw new RmaException("rma cannot start on any rank: " + refusals);
        }
    }

    static Path controlFile(final Path directory, final String jobToken, final int rank)
    {
        return directory.resolve(FILE_PREFIX + jobToken + "-rank" + rank);
    }

    /** The file of one rank's slice of an allocation. */
    Path sliceFile(final long allocationId, final int rank)
    {
        return directory.resolve(FILE_PREFIX + jobToken + "-alloc" + allocationId + "-rank" + rank);
    }

    int size()
    {
        return tiers.length;
    }

    int self()
    {
        return job.rank();
    }

    RankTier tier(final int rank)
    {
        return tiers[rank];
    }

    /** @return whether the rank runs on this host (its control file is mapped here), whichever tier reaches it. */
    boolean sameHost(final int rank)
    {
        return sameHost[rank];
    }

    /** @return the rank's lock stripes; null for a rank reached through the driver. */
    LockStripes stripes(final int rank)
    {
        return stripes[rank];
    }

    /**
     * @return the rank's access-epoch gate; for a rank reached through the driver, one no rank opens (what an operation
     *         on its empty slice, the only one mapped here, takes).
     */
    EpochGate gate(final int rank)
    {
        return gates[rank];
    }

    /**
     * @return where each rank publishes its endpoint for two-sided messages, this rank's own slot to write.
     * @throws IllegalStateException when a rank is reached through the driver (its control file is not mapped here).
     */
    MessageAddresses messageAddresses()
    {
        for (int r = 0; r < addressSlots.length; r++)
        {
            if (null == addressSlots[r])
            {
                throw new IllegalStateException("rank " + r + " is reached through the driver: its control file, " +
                    "where it would publish its message endpoint, is not mapped here");
            }
        }
        return new MessageAddresses(addressSlots, job.rank(), this::checkAlive);
    }

    /** @return the rank's pid, as it announced it at start. */
    long pid(final int rank)
    {
        return pids[rank];
    }

    /** Runs the task on the liveness watcher's thread, once each round until close ({@link LivenessWatcher}). */
    void watchAlso(final Runnable task)
    {
        watcher.watchAlso(task);
    }

    /**
     * @throws IllegalArgumentException naming the rank if it is not one of the job's.
     */
    void checkRank(final int rank, final String what)
    {
        if (rank < 0 || rank >= tiers.length)
        {
            throw new IllegalArgumentException(what + " rank " + rank + " is not a rank of this job (0.." +
                (tiers.length - 1) + ")");
        }
    }

    /**
     * @throws RmaException naming the rank if its process on this host has exited.
     */
    void checkAlive(final int rank)
    {
        if (0 != dead.get(rank))
        {
            throw new RmaException("rank " + rank + " (pid " + pids[rank] + " on this host) has exited");
        }
    }

    @Override
    public void close()
    {
        watcher.close();
    }
}
