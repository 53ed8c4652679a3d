package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.RankAddress;

import java.util.Map;

/**
 * Opens a transport by the name given on the command line.
 */
public final class Transports
{
    private Transports()
    {
    }

    /**
     * @throws IllegalArgumentException naming the transport if it cannot be opened here.
     */
    public static Transport open(final String name, final Job job, final Map<String, String> env)
    {
        return switch (name)
        {
            case "tcp" -> TcpTransport.open(job, tcpHost(job, env), TcpTransport.Progress.BLOCKING, env);
            case "tcp-busy" -> TcpTransport.open(job, tcpHost(job, env), TcpTransport.Progress.BUSY_POLL, env);
            case "aeron" -> AeronIpcTransport.open(job, env);
            case "pinmx" -> PinmxTransport.open(job, env);
            default -> throw new IllegalArgumentException("--transport " + name + ": expected one of " +
                String.join(", ", BenchOptions.TRANSPORTS));
        };
    }

    /** Where this rank's peers reach it ({@link RankAddress}), as for the pinmx transport. */
    private static String tcpHost(final Job job, final Map<String, String> env)
    {
        return RankAddress.choose(env, job).requireAddress().getHostAddress();
    }
}
