package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.RemoteRegion;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The target JVM of {@link RemoteWriteTest}: opens one user-space endpoint, declares {@link #REGION_BYTES} bytes for
 * remote writes and never calls the library again (its driver's progress thread serves peers' puts and atomics).
 * Says {@code TARGET BOARD ENDPOINT SESSION REGION KEY}; on {@code DUMP} prints the region as hex, on {@code EXIT}
 * closes. Argument: whether the same-host path is on.
 */
public final class RemoteWriteTarget
{
    static final int REGION_BYTES = 64 * 1024;

    private RemoteWriteTarget()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final boolean sameHost = Boolean.parseBoolean(args[0]);
        try (Arena arena = Arena.ofShared();
             DriverEndpoint endpoint = new UserDriver("remote-write target").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(sameHost)).build()))
        {
            final MemorySegment region = arena.allocate(REGION_BYTES, 4096);
            final RemoteRegion exposed = endpoint.declareRemoteRegion(new MemorySegment[] {region}, 1);
            System.out.println("TARGET " + endpoint.address().board() + " " + endpoint.address().endpointIndex() + " " +
                endpoint.address().sessionId() + " " + exposed.regionId() + " " + exposed.key());
            System.out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null)
            {
                if (line.equals("DUMP"))
                {
                    System.out.println("DUMP " + HexFormat.of().formatHex(region.toArray(ValueLayout.JAVA_BYTE)));
                    System.out.flush();
                }
                else if (line.equals("EXIT"))
                {
                    return;
                }
            }
        }
    }
}
