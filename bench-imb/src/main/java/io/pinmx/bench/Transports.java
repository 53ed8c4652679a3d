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
            case "tcp" -> TcpTransport.open(job, tcpHost(env), TcpTransport.Progress.BLOCKING, env);
            case "tcp-busy" -> TcpTransport.open(job, tcpHost(env), TcpTransport.Progress.BUSY_POLL, env);
            case "aeron" -> AeronIpcTransport.open(job, env);
            case "pinmx" -> PinmxTransport.open(job, env);
            default -> throw new IllegalArgumentException("--transport " + name + ": expected one of " +
                String.join(", ", BenchOptions.TRANSPORTS));
        };
    }

    private static String tcpHost(final Map<String, String> env)
    {
        return env.getOrDefault(BootstrapAddress.HOST_VARIABLE, "127.0.0.1");
    }
}
