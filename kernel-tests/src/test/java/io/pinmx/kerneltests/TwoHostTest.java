package io.pinmx.kerneltests;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two "hosts": this JVM on one end of a veth pair, an {@link EchoPeer} JVM in another network namespace on the
 * other end, both on pinmx.ko. Real, distinct MAC addresses; frames cross a link; pulls cannot take the
 * same-interface copy. Needs root and {@code ip} (the VM has both); skipped, saying so, otherwise.
 */
class TwoHostTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long PROCESS_TIMEOUT_S = 60;

    @Test
    void messagesOfEverySizeClassCrossAVethPairBetweenNamespacesAndComeBack() throws Exception
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        NetworkNamespaces.withVethPair(NetworkNamespaces.requireIp(), "pmxe", -1,
            pair -> exchangeWithEchoPeer(driver, pair));
    }

    private static void exchangeWithEchoPeer(final KernelDriver driver, final NetworkNamespaces.VethPair pair)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(pair.enter());
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), EchoPeer.class.getName(), pair.there()));
        final Process peer = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (Endpoint endpoint = Endpoint.open(driver, EndpointOptions.builder()
                .driverConfig(KernelDevices.config(1, KernelDriverOptions.defaults().withInterface(pair.here())))
                .applicationKey(EchoPeer.KEY).build());
             Arena arena = Arena.ofShared();
             BufferedReader fromPeer = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
             Writer toPeer = new OutputStreamWriter(peer.getOutputStream(), StandardCharsets.US_ASCII))
        {
            final String line = fromPeer.readLine();
            assertTrue(null != line && line.startsWith("ADDRESS "), "echo peer said: " + line);
            final String[] parts = line.split(" ");
            final EndpointAddress remote = new EndpointAddress(BoardAddress.parse(parts[1]), Integer.parseInt(parts[2]), 0);
            assertNotEquals(endpoint.address().board(), remote.board(), "two interfaces, two MAC addresses");
            toPeer.write(endpoint.address().board() + " " + endpoint.address().endpointIndex() + "\n");
            toPeer.flush();
            final Partner partner = endpoint.connect(remote, EchoPeer.KEY, TIMEOUT);
            final MemorySegment back = arena.allocate(EchoPeer.MAX_BYTES);
            final long[] sizes = {1, 32, 129, 1444, 20_000, 32 * 1024 + 1, 1 << 20, EchoPeer.MAX_BYTES};
            for (int i = 0; i < sizes.length; i++)
            {
                final MemorySegment out = arena.allocate(sizes[i]);
                for (long b = 0; b < sizes[i]; b++)
                {
                    out.set(ValueLayout.JAVA_BYTE, b, (byte)(b * 13 + i));
                }
                final Request recv = endpoint.irecv(MatchInfo.ANY_SOURCE, i + 1, MatchInfo.MASK_ALL, back);
                endpoint.send(partner, i + 1, out, TIMEOUT);
                assertEquals(sizes[i], recv.awaitOrThrow(TIMEOUT).bytesTransferred(), "size " + sizes[i]);
                assertEquals(-1, out.mismatch(back.asSlice(0, sizes[i])), "echo of " + sizes[i] + " bytes");
                recv.release();
            }
            endpoint.send(partner, 0, arena.allocate(1), TIMEOUT);
            assertTrue(peer.waitFor(PROCESS_TIMEOUT_S, TimeUnit.SECONDS), "echo peer finished");
            assertEquals(0, peer.exitValue(), "echo peer exit status");
        }
        finally
        {
            peer.destroyForcibly();
        }
    }
}
