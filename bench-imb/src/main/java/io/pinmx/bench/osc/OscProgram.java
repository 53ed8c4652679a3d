package io.pinmx.bench.osc;

/**
 * The one-sided benchmark programs, with OSU's names where OSU has one, and the header each prints: title,
 * synchronisation and column names, identical in the C baseline ({@code rma/bench/armci_osc.c}) so that
 * {@link OscTable} pairs their sections by title.
 */
public enum OscProgram
{
    OSU_PUT_LATENCY("osu_put_latency", "OSU-style ARMCI Put Latency Test", "ARMCI_Fence after each operation",
        OscProgram.LATENCY_COLUMNS),
    OSU_GET_LATENCY("osu_get_latency", "OSU-style ARMCI Get Latency Test", "blocking get", OscProgram.LATENCY_COLUMNS),
    OSU_ACC_LATENCY("osu_acc_latency", "OSU-style ARMCI Accumulate Latency Test (double)",
        "ARMCI_Fence after each operation", OscProgram.LATENCY_COLUMNS),
    OSU_FOP_LATENCY("osu_fop_latency", "OSU-style ARMCI Fetch-and-add Latency Test (long)", "complete on return",
        OscProgram.LATENCY_COLUMNS),
    /** ARMCI has swap, not compare-and-swap: this stands where OSU's osu_cas_latency would. */
    OSU_SWAP_LATENCY("osu_swap_latency", "OSU-style ARMCI Swap Latency Test (long)", "complete on return",
        OscProgram.LATENCY_COLUMNS),
    OSU_LOCK_LATENCY("osu_lock_latency", "OSU-style ARMCI Lock+Unlock Latency Test (uncontended)",
        "unlock completes the holder's operations", OscProgram.LATENCY_COLUMNS),
    OSU_PUT_BW("osu_put_bw", "OSU-style ARMCI Put Bandwidth Test (window 32)",
        "ARMCI_WaitAll and ARMCI_Fence after each window", OscProgram.BANDWIDTH_COLUMNS),
    OSU_GET_BW("osu_get_bw", "OSU-style ARMCI Get Bandwidth Test (window 32)", "ARMCI_WaitAll after each window",
        OscProgram.BANDWIDTH_COLUMNS),
    ARMCI_STRIDED("armci_strided", "ARMCI-perf-style strided 2-D N x N doubles (leading dimension 512)",
        "blocking; one fence per loop",
        "N            GetS(us)    Get*N(us)     PutS(us)    Put*N(us)     AccS(us)    Acc*N(us)"),
    COMPUTE_WINDOW("compute_window", "Operations completed while the target computes",
        "blocking 8 B operations, the target never calls ARMCI", "Op             Issued   Completed   Window(ms)");

    static final String LATENCY_COLUMNS = "Size          Latency (us)";
    static final String BANDWIDTH_COLUMNS = "Size      Bandwidth (MB/s)";

    private final String osuName;
    private final String title;
    private final String synchronisation;
    private final String columns;

    OscProgram(final String osuName, final String title, final String synchronisation, final String columns)
    {
        this.osuName = osuName;
        this.title = title;
        this.synchronisation = synchronisation;
        this.columns = columns;
    }

    /**
     * @throws IllegalArgumentException naming the program and the known ones.
     */
    public static OscProgram named(final String name)
    {
        for (final OscProgram p : values())
        {
            if (p.osuName.equals(name))
            {
                return p;
            }
        }
        final StringBuilder known = new StringBuilder();
        for (final OscProgram p : values())
        {
            known.append(' ').append(p.osuName);
        }
        throw new IllegalArgumentException("unknown PROGRAM '" + name + "'; known: all" + known);
    }

    public String osuName()
    {
        return osuName;
    }

    public String title()
    {
        return title;
    }

    /** @return true for a table whose values are better when higher (bandwidth, completed operations). */
    public boolean higherIsBetter()
    {
        return this == OSU_PUT_BW || this == OSU_GET_BW || this == COMPUTE_WINDOW;
    }

    String header(final String implementation, final int loops)
    {
        return "# " + title + "\n# Implementation: " + implementation + "\n# Synchronization: " + synchronisation +
            "\n# Timing: each row is the median of " + loops + " timed loops\n# " + columns;
    }
}
