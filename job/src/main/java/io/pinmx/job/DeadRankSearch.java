package io.pinmx.job;

import io.pinmx.pin.provider.ProcessStatus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Which rank ended, once a PMIx call of a collective failed: a fence that a dead rank never joins fails with a
 * status that names no rank (Open MPI's "PARTIAL SUCCESS"), and neither launcher here delivers death events. The
 * launcher's process table ({@link PmixClient#processTable}) gives every rank's host and pid, and its state once the
 * launcher has recorded the end (Open MPI's daemons within a few seconds); a rank of this node is judged at once by
 * its process. After a failure it asks every {@value #POLL_MS} ms until one is found or the deadline passes; a
 * collective still waiting looks now and then ({@link #look}) for ranks the launcher shows failed, since a fence may
 * wait on a rank of another node without ever failing. A server that does not answer the query leaves the search
 * with its refusal, which the caller's error quotes. Used by one thread at a time (the one waiting in a collective).
 */
final class DeadRankSearch
{
    private static final long POLL_MS = 100;
    private static final long QUERY_DEADLINE_MS = 2_000;

    private final int self;
    private final int[] nodeRanks;
    private final Supplier<Future<List<PmixProcess>>> tableQuery;
    private String refusal;

    /**
     * @param self       this rank, never named.
     * @param nodeRanks  the ranks of this node, ascending, this one included (their pids mean something here).
     * @param tableQuery starts {@link PmixClient#processTable} on the thread that makes PMIx calls, so that a query
     *                   the server never answers bounds only the search.
     */
    DeadRankSearch(final int self, final int[] nodeRanks, final Supplier<Future<List<PmixProcess>>> tableQuery)
    {
        this.self = self;
        this.nodeRanks = nodeRanks.clone();
        this.tableQuery = tableQuery;
    }

    /**
     * One look, while a collective still waits: the ranks the table (asked once) shows failed; none once the server
     * has refused the query. A rank that ended normally or whose process merely exited is not named here: on a
     * loaded host a rank may leave the fence, finalize and exit well before this rank's release from the same fence
     * arrives.
     */
    List<EndedRank> look()
    {
        if (null != refusal)
        {
            return List.of();
        }
        final List<PmixProcess> table = table(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUERY_DEADLINE_MS));
        return null == table ? List.of() : ended(table, false);
    }

    /**
     * @return the ranks found ended, none when the deadline passed first or the server refused the query
     *         ({@link #why}).
     */
    List<EndedRank> search(final long searchMs)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(searchMs);
        while (null == refusal)
        {
            final List<PmixProcess> table = table(deadlineNs);
            final List<EndedRank> ended = null == table ? List.of() : ended(table, true);
            if (!ended.isEmpty())
            {
                return ended;
            }
            if (deadlineNs - System.nanoTime() <= 0)
            {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MS));
        }
        return List.of();
    }

    /** @return why a search found nothing: the server's refusal, or that no rank showed its end in time. */
    String why()
    {
        return null != refusal ? "no rank named: " + refusal :
            "no rank of the launcher's process table had ended, none of this node's had exited";
    }

    /** A rank that no longer runs, with what the launcher or this node says of it. */
    record EndedRank(int rank, String description)
    {
    }

    /**
     * @param afterFailure true once a collective failed: every rank the table shows ended, and this node's ranks whose
     *                     process exited; false while it still waits: only the ranks the table shows failed.
     */
    private List<EndedRank> ended(final List<PmixProcess> table, final boolean afterFailure)
    {
        final List<EndedRank> ended = new ArrayList<>();
        for (final PmixProcess p : table)
        {
            if (p.rank() == self)
            {
                continue;
            }
            if (afterFailure ? p.ended() : p.failed())
            {
                ended.add(new EndedRank(p.rank(), p.describe() + " ended: " + p.stateText()));
            }
            else if (afterFailure && p.pid() > 0 && Arrays.binarySearch(nodeRanks, p.rank()) >= 0 &&
                ProcessStatus.EXITED == ProcessStatus.startTime(p.pid()))
            {
                ended.add(new EndedRank(p.rank(), p.describe() + " ended: its process exited (this node)"));
            }
        }
        return ended;
    }

    /** @return the table, or null when the query did not come back in time; a refusal ends the search. */
    private List<PmixProcess> table(final long deadlineNs)
    {
        final Future<List<PmixProcess>> query = tableQuery.get();
        try
        {
            return query.get(Math.max(1, Math.min(QUERY_DEADLINE_MS,
                TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()))), TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException ex)
        {
            refusal = ex.getCause().getMessage();
            return null;
        }
        catch (final TimeoutException ex)
        {
            query.cancel(false);
            refusal = "PMIx: PMIx_Query_info(" + PmixLibrary.QUERY_PROC_TABLE + ") gave no answer within " +
                QUERY_DEADLINE_MS + " ms";
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            refusal = "interrupted while asking for the launcher's process table";
            return null;
        }
    }
}
