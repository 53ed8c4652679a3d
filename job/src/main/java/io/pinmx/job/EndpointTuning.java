package io.pinmx.job;

import io.pinmx.mx.EndpointOptions;
import io.pinmx.pin.spi.EndpointConfig;

/**
 * How a program's endpoint differs from the endpoint library's defaults. {@link JobEndpoint} applies it, then sets
 * what the job owns itself: board 0, an endpoint index per rank, the job's application key (unless set here) and
 * the peer timeout of PINMX_PEER_TIMEOUT_MS.
 */
public interface EndpointTuning
{
    /** The library's and the providers' defaults (a progress thread per endpoint). */
    EndpointTuning DEFAULTS = new EndpointTuning()
    {
    };

    /**
     * Adds provider options ({@code options(UserDriverOptions.class, ...)}, {@code options(KernelDriverOptions.class,
     * ...)}); board and endpoint index are overwritten by the job.
     */
    default void driverConfig(final EndpointConfig.Builder config)
    {
    }

    /**
     * Sets endpoint options: progress mode, ack delay, region cache, application key...; the driver config and the
     * resend timeout and count are overwritten by the job.
     */
    default void options(final EndpointOptions.Builder options)
    {
    }
}
