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
            case "tcp" -> TcpTransport.open(job, RankAddress.choose(env, job).requireAddress().getHostAddress());
            case "pinmx" -> PinmxTransport.open(job, env);
            default -> throw new IllegalArgumentException("--transport " + name + ": expected pinmx or tcp");
        };
    }
}
