package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Gives every rank that uses the driver its {@link CostModel} at {@link Rma#init} (collective): read from its cache
 * file, or measured when there is none, re-measuring was asked for or the file's model was measured with less effort
 * than the job asks for (a quick one for a full job) or lacks the costs of a passive peer's scatter on a rank that
 * is one itself (its peers, set alike, are too), then written there. Ranks measure one after
 * another (each against its next rank reached through the driver), so that their measurements do not disturb each
 * other; unless re-measuring was asked for, a rank whose file an earlier rank of the job wrote for the same key (same
 * host and interface) takes that model instead of measuring again. A damaged file fails the init on every rank, naming the file on its rank; a file that cannot be written is
 * said on stderr and the model just measured is used. Rank 0 says on stderr what is measured and about how long it
 * takes before it starts; each measurement says how long it took.
 */
final class CostModels
{
    private static final byte HAVE = 0;
    private static final byte NEED = 1;
    private static final byte DAMAGED = 2;

    private CostModels()
    {
    }

    /**
     * @return the key of this rank's driver: provider, host, the interface the job runs on, and the tier's inline
     *         limit, where both strided protocols change path (the boundary of the model's size classes: costs
     *         measured around another one would price requests by the wrong class).
     */
    static String key(final JobEndpoint endpoint, final long inlineLimitBytes)
    {
        return key(endpoint.driverEndpoint().info().providerName(), hostName(), endpoint.reachable().interfaceName(),
            inlineLimitBytes);
    }

    /** @return the key of these parts, every character but letters, digits, '.', '_' and '-' made '_'. */
    static String key(final String provider, final String host, final String interfaceName,
        final long inlineLimitBytes)
    {
        final String raw = provider + "-" + host + "-" + interfaceName + "-inline" + inlineLimitBytes;
        return raw.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String hostName()
    {
        try
        {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        }
        catch (final IOException ex)
        {
            return "unknown-host";
        }
    }

    static void establish(final Rma rma, final Job job, final JobEndpoint endpoint, final Ranks ranks,
        final DriverTier driver, final ProtocolChoice choice, final RmaOptions options, final boolean driverWrites)
    {
        final String key = key(endpoint, driver.inlineLimitBytes());
        final Path file = null == options.modelFile() ? CostModelFile.defaultPath(key) : options.modelFile();
        final int peer = driverPeer(ranks, job.rank());
        byte state = NEED;
        RmaException damaged = null;
        if (peer < 0)
        {
            state = HAVE;
        }
        else if (!options.recalibrate())
        {
            try
            {
                final CostModelFile.Stored cached = CostModelFile.read(file, key);
                if (serves(cached, options, driverWrites))
                {
                    choice.model(cached.model());
                    state = HAVE;
                }
            }
            catch (final RmaException ex)
            {
                damaged = ex;
                state = DAMAGED;
            }
        }
        final List<byte[]> states = job.allGather(new byte[] {state});
        int needing = 0;
        for (int r = 0; r < states.size(); r++)
        {
            if (DAMAGED == states.get(r)[0])
            {
                throw null != damaged ? damaged : new RmaException("rank " + r + "'s rma cost model file is " +
                    "damaged (its error names the file)");
            }
            needing += NEED == states.get(r)[0] ? 1 : 0;
        }
        if (0 == needing)
        {
            return;
        }
        if (0 == job.rank())
        {
            // Said before it starts: the job is silent for that long, the first time on a host.
            System.err.println("pinmx-rma: measuring the cost model " + key + " (" + options.calibration().word() +
                ") on " + needing + " rank(s), one after another, about " +
                needing * options.calibration().typicalSecondsPerRank + " s; kept in " + file + " for later jobs");
        }
        final RmaAllocation area = rma.alloc(Calibration.CALIBRATION_BYTES);
        for (int r = 0; r < states.size(); r++)
        {
            if (r == job.rank() && NEED == state && !options.recalibrate() && writtenMeanwhile(file, key, options,
                driverWrites, choice))
            {
                state = HAVE;
            }
            else if (r == job.rank() && NEED == state)
            {
                final long started = System.nanoTime();
                final CostModel measured = Calibration.measure(key, driver, choice, area, peer, options.calibration());
                choice.model(measured);
                // Said because it makes this one init seconds longer than the next (which reads the file).
                System.err.println("pinmx-rma: rank " + job.rank() + " measured the cost model " + key + " (" +
                    options.calibration().word() + ") in " +
                    (System.nanoTime() - started) / 1_000_000 + " ms");
                try
                {
                    CostModelFile.write(file, measured, options.calibration());
                }
                catch (final RmaException ex)
                {
                    // A read-only home (a test VM) only costs the next job a measurement of its own.
                    System.err.println("pinmx-rma: " + ex.getMessage() + "; using the model just measured");
                }
            }
            job.barrier();
        }
        rma.free(area);
    }

    /**
     * A rank of this host that measured before this one in the job wrote the same key's file, unless the ranks'
     * interfaces differ: it serves this rank too, so a job measures once per host and interface, not once per rank.
     * A file that does not serve, or cannot be read, leaves this rank to measure.
     */
    private static boolean writtenMeanwhile(final Path file, final String key, final RmaOptions options,
        final boolean driverWrites, final ProtocolChoice choice)
    {
        try
        {
            final CostModelFile.Stored written = CostModelFile.read(file, key);
            if (serves(written, options, driverWrites))
            {
                choice.model(written.model());
                return true;
            }
        }
        catch (final RmaException ex)
        {
            return false;
        }
        return false;
    }

    /**
     * @return whether a cached model serves a job of these options: there is one, measured with at least the effort
     *         asked, and with a passive peer's scatter costs if this rank is a passive target ({@code driverWrites};
     *         its peers, set alike, are too).
     */
    static boolean serves(final CostModelFile.Stored cached, final RmaOptions options, final boolean driverWrites)
    {
        return null != cached && cached.effort().serves(options.calibration()) &&
            (null != cached.model().scatter() || !driverWrites);
    }

    /** @return the next rank after {@code self} reached through the driver, or -1 if there is none. */
    private static int driverPeer(final Ranks ranks, final int self)
    {
        for (int i = 1; i < ranks.size(); i++)
        {
            final int r = (self + i) % ranks.size();
            if (RankTier.DRIVER == ranks.tier(r))
            {
                return r;
            }
        }
        return -1;
    }
}
