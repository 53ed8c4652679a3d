package io.pinmx.bench;

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
            case "pinmx" -> throw new IllegalArgumentException("--transport pinmx: the endpoint library (userlib, " +
                "io.pinmx.mx) is not built into bench-imb yet; run with --transport tcp");
            default -> throw new IllegalArgumentException("--transport " + name + ": expected pinmx or tcp");
        };
    }
}
