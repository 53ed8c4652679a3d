package io.pinmx.job;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a rank's busy-polling thread runs (a benchmark transport's thread, the thread of an MPJ rank whose waits
 * poll the endpoint): bound to one CPU per rank (rank r on the r-th CPU the thread may use), as MPI launchers bind
 * ranks, unless PINMX_BIND=none or the job has more ranks than CPUs. Whatever is compared takes the same binding,
 * so that it runs under the same conditions (see {@link CpuBinding} for why binding matters). A CPU another job's rank
 * is bound to ({@link CpuClaims}) is passed over for the next free one; when none is free the rank binds as it would
 * have and says so on stderr, naming that job's pid.
 */
public final class RankBinding implements AutoCloseable
{
    /** The user driver's directory of endpoint files (a tmpfs): CPU claims live beside them. */
    private static final String SHM_DIRECTORY_VARIABLE = "PINMX_SHM_DIR";
    /** "core" (default): bind the rank's polling thread to one CPU per rank; "none": don't. */
    public static final String BIND_VARIABLE = "PINMX_BIND";

    private static final String DEFAULT_SHM_DIRECTORY = "/dev/shm";

    private final CpuBinding binding;
    /** The host's claims this binding holds one of, or null. */
    private final CpuClaims claims;
    private final String description;

    private RankBinding(final CpuBinding binding, final CpuClaims claims, final String description)
    {
        this.binding = binding;
        this.claims = claims;
        this.description = description;
    }

    /**
     * Binds the calling thread as PINMX_BIND asks.
     *
     * @throws IllegalArgumentException naming PINMX_BIND if it is neither core nor none.
     */
    public static RankBinding bind(final Job job, final Map<String, String> env)
    {
        return bind(job.rank(), job.size(), env);
    }

    /**
     * Binds the calling thread as PINMX_BIND asks, for rank {@code rank} of a job of {@code size} ranks on this host
     * (a program started by another launcher than the job's, such as MPJ's niodev ranks).
     *
     * @throws IllegalArgumentException naming PINMX_BIND if it is neither core nor none.
     */
    public static RankBinding bind(final int rank, final int size, final Map<String, String> env)
    {
        final String bind = env.getOrDefault(BIND_VARIABLE, "core");
        if (!"core".equals(bind) && !"none".equals(bind))
        {
            throw new IllegalArgumentException(BIND_VARIABLE + "=" + bind + ": expected core or none");
        }
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        if ("none".equals(bind))
        {
            return new RankBinding(null, null, "that thread is not bound to a CPU (" + BIND_VARIABLE + "=none)");
        }
        if (size > allowed)
        {
            return new RankBinding(null, null, "that thread is not bound to a CPU (" + size + " ranks, " + allowed +
                " CPUs allowed)");
        }
        final CpuClaims claims = new CpuClaims(Path.of(env.getOrDefault(SHM_DIRECTORY_VARIABLE,
            DEFAULT_SHM_DIRECTORY), CpuClaims.DIRECTORY_NAME));
        final int[] cpus = CpuBinding.allowedCpuList();
        final int preferred = cpus[rank % cpus.length];
        CpuClaims.Outcome claim;
        String where = "";
        try
        {
            claim = claims.claim(cpus, rank);
        }
        catch (final UncheckedIOException ex)
        {
            // The claims only keep jobs apart: without them the rank binds as if it were alone.
            claim = new CpuClaims.Outcome(preferred, false, -1);
            where = "; other jobs' CPUs unknown: " + ex.getMessage();
        }
        final CpuBinding binding;
        try
        {
            binding = CpuBinding.bindCurrentThreadTo(claim.cpu());
        }
        catch (final RuntimeException ex)
        {
            if (claim.claimed())
            {
                claims.release(claim.cpu());
            }
            throw ex;
        }
        if (!claim.claimed() && claim.heldByPid() > 0)
        {
            where = "; CPU " + claim.cpu() + " is also bound by pid " + claim.heldByPid() + ", another job: both take " +
                "turns on it";
            System.err.println("pinmx: warning: rank " + rank + " binds to CPU " + claim.cpu() + ", which pid " +
                claim.heldByPid() + " (another job) has bound already: no CPU of the " + cpus.length +
                " allowed is free, so both run slower (" + BIND_VARIABLE + "=none leaves ranks unbound)");
        }
        else if (claim.cpu() != preferred)
        {
            where = "; CPU " + preferred + " is bound by pid " + claim.heldByPid() + ", another job";
        }
        return new RankBinding(binding, claim.claimed() ? claims : null, "that thread is bound to CPU " +
            binding.cpu() + " (rank " + rank + " of " + size + ", " + binding.allowedCpus() + " CPUs allowed" + where +
            "; " + BIND_VARIABLE + "=none leaves it unbound)");
    }

    /**
     * Binds the calling thread only when PINMX_BIND asks for it: unset means none here. For programs that run on a
     * host shared with other jobs by default (an MPJ rank bound to one CPU cannot leave it when other processes crowd
     * that CPU: ranks went silent past the peer timeout there), bound only for a benchmark that sets PINMX_BIND=core.
     *
     * @throws IllegalArgumentException naming PINMX_BIND if it is neither core nor none.
     */
    public static RankBinding bindWhenAsked(final int rank, final int size, final Map<String, String> env)
    {
        return bind(rank, size, Map.of(BIND_VARIABLE, env.getOrDefault(BIND_VARIABLE, "none")));
    }

    /**
     * @return where the thread runs, for the table header.
     */
    public String description()
    {
        return description;
    }

    /** Gives the thread its previous CPU set back; must run on the bound thread. */
    @Override
    public void close()
    {
        if (null != binding)
        {
            try
            {
                binding.close();
            }
            finally
            {
                if (null != claims)
                {
                    claims.release(binding.cpu());
                }
            }
        }
    }
}
