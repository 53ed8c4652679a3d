package io.pinmx.bench;

import io.pinmx.job.Job;

import java.util.Map;

/**
 * Where a busy-polling transport's benchmark thread runs: bound to one CPU per rank (rank r on the r-th CPU the
 * thread may use) while the transport is open, as MPI launchers bind ranks, unless PINMX_BIND=none or the job has
 * more ranks than CPUs. Every busy-polling transport takes the same binding, so that they are compared under the
 * same conditions; blocking transports take none (see {@link CpuBinding} for why).
 */
public final class RankBinding implements AutoCloseable
{
    /** "core" (default): bind the benchmark thread to one CPU per rank while a busy-polling transport is open; "none": don't. */
    static final String BIND_VARIABLE = "PINMX_BIND";

    private final CpuBinding binding;
    private final String description;

    private RankBinding(final CpuBinding binding, final String description)
    {
        this.binding = binding;
        this.description = description;
    }

    /**
     * Binds the calling thread as PINMX_BIND asks.
     *
     * @throws IllegalArgumentException naming PINMX_BIND if it is neither core nor none.
     */
    public static RankBinding bind(final Job job, final Map<String, String> env)
    {
        final String bind = env.getOrDefault(BIND_VARIABLE, "core");
        if (!"core".equals(bind) && !"none".equals(bind))
        {
            throw new IllegalArgumentException(BIND_VARIABLE + "=" + bind + ": expected core or none");
        }
        final int allowed = CpuBinding.allowedCpusOfThisThread();
        if ("none".equals(bind))
        {
            return new RankBinding(null, "that thread is not bound to a CPU (" + BIND_VARIABLE + "=none)");
        }
        if (job.size() > allowed)
        {
            return new RankBinding(null, "that thread is not bound to a CPU (" + job.size() + " ranks, " + allowed +
                " CPUs allowed)");
        }
        final CpuBinding binding = CpuBinding.bindCurrentThread(job.rank());
        return new RankBinding(binding, "that thread is bound to CPU " + binding.cpu() + " (rank " + job.rank() +
            " of " + job.size() + ", " + binding.allowedCpus() + " CPUs allowed; " + BIND_VARIABLE +
            "=none leaves it unbound)");
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
            binding.close();
        }
    }
}
