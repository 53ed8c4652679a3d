package io.pinmx.pin.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the module's state from sysfs, the device and debugfs, on files laid out as the module lays them out.
 */
class KernelModuleStatusTest
{
    @TempDir
    Path dir;

    @Test
    void theDebugfsListingParsesIntoInterfacesAndEndpoints()
    {
        final List<KernelModuleStatus.Interface> interfaces = new ArrayList<>();
        final List<KernelModuleStatus.BoundEndpoint> endpoints = new ArrayList<>();
        KernelModuleStatus.parseListing(List.of(
            "iface lo ifindex 1 mtu 65536 mac 00:00:00:00:00:00",
            "endpoint lo 0 id 4 session 0xdeadbeef mode 2",
            "iface veth0 ifindex 9 mtu 1500 mac 02:11:22:33:44:55"), interfaces, endpoints);
        assertEquals(List.of(new KernelModuleStatus.Interface("lo", 1, 65536, "00:00:00:00:00:00"),
            new KernelModuleStatus.Interface("veth0", 9, 1500, "02:11:22:33:44:55")), interfaces);
        assertEquals(List.of(new KernelModuleStatus.BoundEndpoint("lo", 0, 4, 0xdeadbeef, 2)), endpoints);

        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () ->
            KernelModuleStatus.parseListing(List.of("iface lo"), interfaces, endpoints));
        assertEquals("unexpected line 'iface lo'", bad.getMessage());
    }

    @Test
    void sysfsGivesVersionAndParametersAndEachMissingSourceSaysWhy() throws IOException
    {
        final Path sys = Files.createDirectories(dir.resolve("sys/module/pinmx/parameters"));
        Files.writeString(sys.getParent().resolve("version"), "0.1.0\n");
        Files.writeString(sys.resolve("budget_pages"), "262144\n");
        Files.writeString(sys.resolve("ifnames"), "(null)\n");
        final KernelModuleStatus status = KernelModuleStatus.read(sys.getParent(), dir.resolve("no-device"),
            dir.resolve("no-debugfs"));
        assertTrue(status.loaded());
        assertEquals("0.1.0", status.version());
        assertEquals(Map.of("budget_pages", "262144", "ifnames", "(null)"), status.parameters());
        assertEquals(-1, status.abiVersion());
        assertEquals("no " + dir.resolve("no-device") + " (pinmx.ko is not loaded)", status.deviceProblem());
        assertTrue(status.debugfsProblem().startsWith("cannot read " + dir.resolve("no-debugfs")), status.debugfsProblem());

        final KernelModuleStatus absent = KernelModuleStatus.read(dir.resolve("none"), dir.resolve("no-device"),
            dir.resolve("no-debugfs"));
        assertFalse(absent.loaded());
        assertEquals("", absent.version());
        assertTrue(absent.parameters().isEmpty());
    }
}
