package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.spi.EndpointConfig;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Assumptions and endpoint factories shared by the tests: a test that needs /dev/pinmx (or a module feature) is
 * skipped with the reason, never passed silently, where it is missing.
 */
final class KernelDevices
{
    /**
     * Set to true (in {@code PINMX_VM_JAVA_OPTS}) to run the long variants too: tests whose path another test already
     * covers by default, each minutes of guest time under TCG.
     */
    static final String LONG_VARIANTS_PROPERTY = "pinmx.kernel.long";

    /*
     * Job classes and tests (rank JVMs above the module, minutes of guest time each) whose module paths the classes
     * run on both kernels cover too: ./run-tests.sh runs each on one kernel's lane only, halving the lanes' Java time,
     * and splits them so that both lanes end about together (the run waits for the later one).
     */

    /** JUnit tag of a job class or test ./run-tests.sh runs in the 6.1 lane only. */
    static final String CI_LANE_6_1 = "ci-lane-6.1";

    /** JUnit tag of a job class or test ./run-tests.sh runs in the 6.12 lane only. */
    static final String CI_LANE_6_12 = "ci-lane-6.12";

    private KernelDevices()
    {
    }

    /** Skips the calling test unless /dev/pinmx exists and speaks this library's ABI version. */
    static KernelDriver requireDevice()
    {
        final KernelDriver.Probe probe = KernelDriver.probe(KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION);
        assumeTrue(probe.usable(), () -> "needs a usable /dev/pinmx (run in the VM: kmod/vm/run-tests.sh --java " +
            "kernel-tests): " + probe.reason());
        return new KernelDriver("test: " + probe.reason());
    }

    /** Skips the calling test unless the module runs pulls (PINMX_FEATURE_NET_PULL). */
    static void requirePulls(final KernelEndpoint endpoint)
    {
        assumeTrue(endpoint.hasModuleFeature(PinmxAbi.FEATURE_NET_PULL), () -> "pinmx.ko lacks " +
            "PINMX_FEATURE_NET_PULL (no pull engine yet): " + endpoint.info().chosenBecause());
    }

    /** Endpoint {@code index} on {@code lo} with the default kernel options. */
    static EndpointConfig config(final int index)
    {
        return config(index, KernelDriverOptions.defaults());
    }

    static EndpointConfig config(final int index, final KernelDriverOptions options)
    {
        return EndpointConfig.builder().endpointIndex(index).options(KernelDriverOptions.class, options).build();
    }
}
