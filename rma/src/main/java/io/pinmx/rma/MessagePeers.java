package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;

/**
 * The endpoint two-sided messages go through, and each other rank's partner on it: the job's endpoint when the job
 * has one ({@link JobMessagePeers}), else one of their own opened on demand ({@link OnDemandMessageEndpoint}).
 */
interface MessagePeers
{
    /**
     * @throws RmaException when this rank's endpoint could not open, naming why.
     */
    Endpoint endpoint();

    /**
     * @param rank another rank of the job, alive as far as this rank knows.
     * @throws RmaException naming the rank when it cannot be reached.
     */
    Partner partner(int rank);

    /** Releases what this owns: nothing when the endpoint is the job's. */
    void close();
}
