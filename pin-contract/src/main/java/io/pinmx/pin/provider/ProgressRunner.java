package io.pinmx.pin.provider;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;

/**
 * The one place that runs a rank's progress agents in its {@link ThreadingMode}: a daemon {@link AgentRunner}
 * thread named after the agents' role, idling with the given strategy (DEDICATED), or an {@link AgentInvoker} whose
 * duty cycles the callers' waits run through {@link #invoke} (INVOKER). Several agents run as one
 * {@link CompositeAgent}, each doWork in turn.
 * <p>
 * INVOKER: any thread may call {@link #invoke}; the agents serialise their own duty cycles (they try their owner's
 * lock and do nothing when another caller holds it), and the invoker's own state changes only on start and close.
 */
public final class ProgressRunner implements AutoCloseable
{
    private final ThreadingMode mode;
    private final AgentRunner runner;
    private final AgentInvoker invoker;

    private ProgressRunner(final ThreadingMode mode, final IdleStrategy idleStrategy, final ErrorHandler errorHandler,
        final Agent agent)
    {
        this.mode = mode;
        if (ThreadingMode.DEDICATED == mode)
        {
            this.runner = new AgentRunner(idleStrategy, errorHandler, null, agent);
            this.invoker = null;
        }
        else
        {
            this.runner = null;
            this.invoker = new AgentInvoker(errorHandler, null, agent);
        }
    }

    /**
     * Starts the agents: on their thread (DEDICATED), or ready for {@link #invoke} (INVOKER).
     *
     * @param idleStrategy how the DEDICATED thread idles between duty cycles without work; unused by INVOKER.
     * @param errorHandler what a duty cycle or an idle threw (the runner goes on; an agent that must stop throws
     *                     {@link org.agrona.concurrent.AgentTerminationException} from its next doWork).
     * @throws IllegalArgumentException naming a missing argument or an empty agent list.
     */
    public static ProgressRunner start(
        final ThreadingMode mode, final IdleStrategy idleStrategy, final ErrorHandler errorHandler,
        final Agent... agents)
    {
        if (null == mode || null == errorHandler || (ThreadingMode.DEDICATED == mode && null == idleStrategy))
        {
            throw new IllegalArgumentException("mode " + mode + ", idleStrategy " + idleStrategy + ", errorHandler " +
                errorHandler + ": expected a mode, an error handler and, for DEDICATED, an idle strategy");
        }
        if (null == agents || 0 == agents.length)
        {
            throw new IllegalArgumentException("agents: expected at least one");
        }
        final Agent agent = 1 == agents.length ? agents[0] : new CompositeAgent(agents);
        final ProgressRunner progress = new ProgressRunner(mode, idleStrategy, errorHandler, agent);
        if (null != progress.runner)
        {
            AgentRunner.startOnThread(progress.runner, task -> Thread.ofPlatform().daemon().unstarted(task));
        }
        else
        {
            progress.invoker.start();
        }
        return progress;
    }

    public ThreadingMode mode()
    {
        return mode;
    }

    /** @return the DEDICATED thread, or null (INVOKER, or not started yet). */
    public Thread thread()
    {
        return null == runner ? null : runner.thread();
    }

    /**
     * INVOKER: one duty cycle of the agents on the calling thread; DEDICATED: nothing (their thread owns them).
     *
     * @return the work the duty cycle did; 0 when it did none, in DEDICATED mode, or once closed.
     */
    public int invoke()
    {
        return null == invoker ? 0 : invoker.invoke();
    }

    /** Stops the agents: DEDICATED waits for the thread to finish its duty cycle; onClose runs once. */
    @Override
    public void close()
    {
        if (null != runner)
        {
            runner.close();
        }
        else
        {
            invoker.close();
        }
    }
}
