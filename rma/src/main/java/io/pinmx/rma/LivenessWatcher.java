package io.pinmx.rma;

import io.pinmx.pin.provider.ProgressRunner;
import io.pinmx.pin.provider.ThreadingMode;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingIdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The liveness watcher of a rank's {@link Ranks}: an agent on a thread of its own (a DEDICATED
 * {@link ProgressRunner}) that sleeps {@link #PERIOD_MS} between rounds. Each round marks dead every same-host rank
 * whose process exited, then runs the task set by {@link #watchAlso} (the on-demand message endpoint's open and
 * poll, so a rank that computes still answers). The process handles are its thread's; the dead marks are read by
 * every operation on a same-host rank.
 */
final class LivenessWatcher implements Agent, AutoCloseable
{
    /** Rounds are this far apart: how late an exited rank is noticed. */
    static final long PERIOD_MS = 50;

    private final RankTier[] tiers;
    private final long[] pids;
    private final AtomicIntegerArray dead;
    private final ProcessHandle[] handles;
    private final ProgressRunner runner;
    /** Run on each round once set. */
    private volatile Runnable task;
    /** A round threw: the next one ends the watcher. */
    private boolean ended;

    /** Starts watching the ranks on the shared-memory tier; {@code dead} gets 1 for each that exits. */
    LivenessWatcher(final RankTier[] tiers, final long[] pids, final AtomicIntegerArray dead)
    {
        this.tiers = tiers;
        this.pids = pids;
        this.dead = dead;
        this.handles = new ProcessHandle[tiers.length];
        this.runner = ProgressRunner.start(ThreadingMode.DEDICATED,
            new SleepingIdleStrategy(TimeUnit.MILLISECONDS.toNanos(PERIOD_MS)), this::onError, this);
    }

    @Override
    public String roleName()
    {
        return "pinmx-rma-liveness";
    }

    /** Runs the task on the watcher's thread, once each round until close. */
    void watchAlso(final Runnable task)
    {
        this.task = task;
    }

    @Override
    public void onStart()
    {
        for (int r = 0; r < tiers.length; r++)
        {
            if (RankTier.SHARED_MEMORY == tiers[r])
            {
                handles[r] = ProcessHandle.of(pids[r]).orElse(null);
                dead.set(r, null == handles[r] ? 1 : 0);
            }
        }
    }

    /**
     * One round.
     *
     * @return 0: the watcher sleeps its period after every round.
     * @throws AgentTerminationException after a round that threw.
     */
    @Override
    public int doWork()
    {
        if (ended)
        {
            throw new AgentTerminationException(roleName() + " ended");
        }
        for (int r = 0; r < handles.length; r++)
        {
            if (null != handles[r] && !handles[r].isAlive())
            {
                dead.set(r, 1);
                handles[r] = null;
            }
        }
        final Runnable watched = task;
        if (null != watched)
        {
            watched.run();
        }
        return 0;
    }

    /** What a round threw, other than the watcher's own end: named, and the watcher ends. */
    private void onError(final Throwable error)
    {
        if (!(error instanceof AgentTerminationException))
        {
            System.err.println(roleName() + " ends: " + error);
            ended = true;
        }
    }

    /** Stops the watcher once its round under way ends. */
    @Override
    public void close()
    {
        runner.close();
    }
}
