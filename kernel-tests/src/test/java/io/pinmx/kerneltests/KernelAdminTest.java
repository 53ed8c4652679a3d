package io.pinmx.kerneltests;

import io.pinmx.pin.admin.PinmxAdmin;
import io.pinmx.pin.kernel.KernelCounter;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.spi.DriverEndpoint;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pinmx-admin's view of the loaded module: version (MODULE_VERSION = dkms.conf's PACKAGE_VERSION), ABI, features,
 * parameters, lo attached, a bound endpoint listed with its session and gone once closed, module counters.
 */
class KernelAdminTest
{
    private static final int INDEX = 77;

    private String out;
    private String err;

    private int admin(final String... args)
    {
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final ByteArrayOutputStream e = new ByteArrayOutputStream();
        final int status = PinmxAdmin.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return status;
    }

    private static String packageVersion() throws IOException
    {
        Path dir = Path.of("").toAbsolutePath();
        while (null != dir && !Files.exists(dir.resolve("kmod/dkms.conf")))
        {
            dir = dir.getParent();
        }
        assertTrue(null != dir, "kmod/dkms.conf above " + Path.of("").toAbsolutePath());
        return Files.readAllLines(dir.resolve("kmod/dkms.conf")).stream()
            .filter(l -> l.startsWith("PACKAGE_VERSION=")).findFirst().orElseThrow()
            .replaceAll("PACKAGE_VERSION=\"(.*)\"", "$1");
    }

    @Test
    void theModuleDescribesItselfAndItsBoundEndpoints() throws IOException
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        final String version = packageVersion();
        final String endpointLine;
        try (DriverEndpoint endpoint = driver.open(KernelDevices.config(INDEX)))
        {
            final KernelModuleStatus status = KernelModuleStatus.read();
            assertTrue(status.loaded());
            assertEquals(version, status.version());
            assertNull(status.deviceProblem());
            assertEquals(PinmxAbi.ABI_VERSION, status.abiVersion());
            assertTrue(status.featureNames().contains("NET_IFACE"), status.featureNames());
            assertTrue(status.parameters().containsKey("budget_pages"), status.parameters().toString());
            assertNull(status.debugfsProblem());
            assertTrue(status.interfaces().stream().anyMatch(i -> i.name().equals("lo")), status.interfaces().toString());
            assertTrue(status.endpoints().contains(new KernelModuleStatus.BoundEndpoint("lo", INDEX,
                status.endpoints().stream().filter(e -> e.index() == INDEX).findFirst().orElseThrow().id(),
                endpoint.address().sessionId(), status.endpoints().stream().filter(e -> e.index() == INDEX)
                    .findFirst().orElseThrow().pinMode())), status.endpoints().toString());
            assertEquals(KernelCounter.values().length, status.counters().length);

            assertEquals(0, admin("info"), err);
            assertTrue(out.contains("kernel module pinmx.ko " + version + "\n  ABI version " + PinmxAbi.ABI_VERSION),
                out);
            assertTrue(out.contains("\n    lo ifindex 1 mtu "), out);

            endpointLine = "kernel lo index " + INDEX + " id ";
            assertEquals(0, admin("endpoints"), err);
            assertTrue(out.lines().anyMatch(l -> l.startsWith(endpointLine) &&
                l.contains(" session 0x" + Integer.toHexString(endpoint.address().sessionId()) + " ")), out);

            assertEquals(0, admin("--json", "counters", "kernel", "--all"), err);
            assertTrue(out.startsWith("{\"kernel\":{\"counters\":{\"PIN_CALLS\":"), out);
        }
        assertEquals(0, admin("endpoints"), err);
        assertFalse(out.contains(endpointLine), out);
    }
}
