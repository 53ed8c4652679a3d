package io.pinmx.pin.user;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;

/**
 * The responder of an endpoint without a progress thread, an agent on a thread of its own that idles
 * {@link EndpointAgent#RESPONDER_CHECK_NS} between checks: when no duty cycle ran for
 * {@link EndpointAgent#RESPONDER_IDLE_NS} (the application computes, or is descheduled), it has the endpoint's agent
 * run one ({@link EndpointAgent#respond}), so received frames wait as events, pulls are served and liveness probes
 * answered. Its fields are its thread's.
 */
final class Responder implements Agent
{
    private final EndpointAgent agent;
    private final String roleName;
    private long seenCycles;
    private long unchangedSinceNs;

    Responder(final EndpointAgent agent, final String roleName)
    {
        this.agent = agent;
        this.roleName = roleName;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    @Override
    public void onStart()
    {
        seenCycles = agent.cycles();
        unchangedSinceNs = System.nanoTime();
    }

    /**
     * One check: a cycle counted since the last one restarts the wait, else one runs once the wait is long enough.
     *
     * @return 0: the responder idles its check interval whatever it did.
     * @throws AgentTerminationException once a check failed ({@link EndpointAgent#failure}): the responder ends.
     */
    @Override
    public int doWork()
    {
        if (null != agent.failure())
        {
            throw new AgentTerminationException(roleName + " failed");
        }
        final long nowNs = System.nanoTime();
        final long cyclesNow = agent.cycles();
        if (cyclesNow != seenCycles)
        {
            seenCycles = cyclesNow;
            unchangedSinceNs = nowNs;
        }
        else if (nowNs - unchangedSinceNs >= EndpointAgent.RESPONDER_IDLE_NS && agent.respond())
        {
            seenCycles = agent.cycles();
            unchangedSinceNs = nowNs;
        }
        return 0;
    }
}
