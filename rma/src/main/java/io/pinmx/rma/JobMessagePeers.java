package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;

/** Two-sided messages over the job's endpoint, connected to every rank at init; its owner closes it. */
final class JobMessagePeers implements MessagePeers
{
    private final JobEndpoint job;

    JobMessagePeers(final JobEndpoint job)
    {
        this.job = job;
    }

    @Override
    public Endpoint endpoint()
    {
        return job.endpoint();
    }

    @Override
    public Partner partner(final int rank)
    {
        return job.partner(rank);
    }

    @Override
    public void close()
    {
    }
}
