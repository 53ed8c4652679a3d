package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.RemoteRegion;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The target process of {@link KernelOneSidedTest}: opens endpoint {@code INDEX} on interface {@code IFNAME}, declares
 * {@link #REGION_BYTES} zeroed bytes for remote writes and prints {@code TARGET <board> <index> <session> <region>
 * <key>}. It never polls its endpoint: pinmx.ko applies the puts and atomics. On {@code DUMP} from stdin it prints
 * {@code DUMP <hex of the region>}; on {@code EXIT} it closes and exits 0.
 */
public final class OneSidedTarget
{
    static final int REGION_BYTES = 64 * 1024;

    private OneSidedTarget()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final KernelDriver driver = new KernelDriver("one-sided target on " + args[0]);
        try (DriverEndpoint endpoint = driver.open(KernelDevices.config(Integer.parseInt(args[1]),
                KernelDriverOptions.defaults().withInterface(args[0])));
             Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(REGION_BYTES, 4096);
            final RemoteRegion region = endpoint.declareRemoteRegion(new MemorySegment[] {memory}, 1);
            System.out.println("TARGET " + endpoint.address().board() + " " + endpoint.address().endpointIndex() +
                " " + endpoint.address().sessionId() + " " + region.regionId() + " " + region.key());
            System.out.flush();
            final BufferedReader commands =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            for (String line = commands.readLine(); null != line && !line.equals("EXIT"); line = commands.readLine())
            {
                if (line.equals("DUMP"))
                {
                    System.out.println("DUMP " + HexFormat.of().formatHex(memory.toArray(ValueLayout.JAVA_BYTE)));
                    System.out.flush();
                }
            }
        }
    }
}
