package io.pinmx.job;

/**
 * One rank's entry in the launcher's process table (PMIx's pmix_proc_info_t): where it runs, its pid there, and the
 * state the launcher last recorded for it.
 *
 * @param rank  the rank in the job.
 * @param host  the host name the launcher knows it by, or null.
 * @param pid   its pid on that host (0 when unknown).
 * @param state PMIx's process state code ({@code PMIX_PROC_STATE_*}).
 */
record PmixProcess(int rank, String host, int pid, int state)
{
    /** PMIX_PROC_STATE_UNDEF: the launcher says nothing of the process. */
    static final int STATE_UNKNOWN = 0;
    /** PMIX_PROC_STATE_TERMINATED: every state from here on is a process that no longer runs. */
    static final int STATE_TERMINATED = 20;
    /** PMIX_PROC_STATE_ERROR: the states from here on are abnormal ends. */
    static final int STATE_ERROR = 50;

    /** @return whether the launcher has recorded this process's end. */
    boolean ended()
    {
        return state >= STATE_TERMINATED;
    }

    /** @return e.g. "rank 1 (host node7, pid 4242)", leaving out what the launcher did not say. */
    String describe()
    {
        final String where = (null == host ? "" : "host " + host) + (0 == pid ? "" : (null == host ? "" : ", ") +
            "pid " + pid);
        return "rank " + rank + (where.isEmpty() ? "" : " (" + where + ")");
    }

    /** @return whether the launcher has recorded an abnormal end (signal, abort, exit without finalizing, ...). */
    boolean failed()
    {
        return state >= STATE_ERROR;
    }

    /** @return the launcher's word for the state, with its code. */
    String stateText()
    {
        final String word = switch (state)
        {
            case STATE_TERMINATED -> "terminated";
            case STATE_ERROR + 1 -> "killed by command";
            case STATE_ERROR + 2 -> "aborted";
            case STATE_ERROR + 3 -> "failed to start";
            case STATE_ERROR + 4 -> "aborted by signal";
            case STATE_ERROR + 5 -> "exited without PMIx_Finalize";
            case STATE_ERROR + 6 -> "lost its connection";
            case STATE_ERROR + 8 -> "called PMIx_Abort";
            case STATE_ERROR + 9 -> "missed its heartbeat";
            case STATE_ERROR + 12 -> "exited with a non-zero status";
            case STATE_ERROR + 13 -> "failed to launch";
            default -> state >= STATE_ERROR ? "failed" : ended() ? "ended" : "running";
        };
        return word + " (PMIx process state " + state + ")";
    }
}
