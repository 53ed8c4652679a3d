package io.pinmx.bench;

import io.pinmx.job.BootstrapAddress;
import io.pinmx.job.Job;

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
            case "tcp" -> TcpTransport.open(job, env.getOrDefault(BootstrapAddress.HOST_VARIABLE, "127.0.0.1"));
            case "pinmx" -> PinmxTransport.open(job, env);
            default -> throw new IllegalArgumentException("--transport " + name + ": expected pinmx or tcp");
        };
    }
}
