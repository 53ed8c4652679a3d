package io.pinmx.mx;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One-sided writes and atomics on a driver without them ({@link NoRemoteWritesDriver}: the user driver as a provider
 * lacking the capabilities behaves): the endpoint says so through {@link Endpoint#driverInfo()}, and exposing for writes, {@code iput}, {@code iputv},
 * {@code iatomic} and {@code iaccumulate} each fail at once with {@link DriverError#UNSUPPORTED} naming the provider
 * and the missing capability, take no request and change nothing: afterwards more refused calls than the endpoint
 * has requests still fail the same way, and a message and a one-sided read still work. The user driver's writes are
 * {@link UserDriverRemoteWriteTest}'s; the kernel provider's are tested in the VM (kernel-tests'
 * {@code KernelOneSidedTest}, {@code KernelRemoteWriteTest}).
 */
class RemoteWriteCapabilityTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x0EAE;
    private static final int MAX_REQUESTS = 16;

    private final Arena arena = Arena.ofShared();
    private Endpoint origin;
    private Endpoint target;

    @AfterEach
    void close()
    {
        if (null != origin)
        {
            origin.close();
            target.close();
        }
        arena.close();
    }

    @Test
    void aDriverWithoutRemoteWritesRefusesThemNamingItselfAndTheCapability()
    {
        final UserDriverOptions driver = UserDriverOptions.defaults();
        origin = Endpoint.open(new NoRemoteWritesDriver(),
            TestEndpoints.options(1, KEY, driver).maxRequests(MAX_REQUESTS).build());
        target = Endpoint.open(new NoRemoteWritesDriver(), TestEndpoints.options(2, KEY, driver).build());
        final Partner partner = origin.connect(target.address(), KEY, TIMEOUT);
        assertFalse(origin.driverInfo().has(DriverFeature.REMOTE_WRITE), "the driver lists no REMOTE_WRITE");
        assertFalse(origin.driverInfo().has(DriverFeature.REMOTE_ATOMIC), "the driver lists no REMOTE_ATOMIC");
        final MemorySegment memory = arena.allocate(4096, 8);
        memory.set(ValueLayout.JAVA_LONG, 0, 77);
        refused(DriverFeature.REMOTE_WRITE, "declareRemoteRegion", () -> target.regions().exposeForWrites(memory));
        final MemorySegment source = arena.allocate(64);
        for (int i = 0; i < MAX_REQUESTS + 4; i++)
        {
            refused(DriverFeature.REMOTE_WRITE, "iput", () -> origin.writes().iput(partner, 1, 42, 0, source));
            refused(DriverFeature.REMOTE_WRITE, "iput", () -> origin.writes().iputv(partner, 1, 42, new long[] {0, 128},
                source, new long[] {0, 32}, new long[] {32, 32}, 2));
            refused(DriverFeature.REMOTE_ATOMIC, "iatomic",
                () -> origin.writes().iatomic(partner, 1, 42, AtomicOp.FETCH_ADD, 8, 0, 1, 0));
            refused(DriverFeature.REMOTE_ATOMIC, "iatomic",
                () -> origin.writes().iaccumulate(partner, 1, 42, 8, 0, arena.allocate(16, 8)));
        }
        assertEquals(77, memory.get(ValueLayout.JAVA_LONG, 0), "nothing touched the memory");
        final ExposedRegion readable = target.regions().expose(memory);
        final MemorySegment got = arena.allocate(8);
        final Request read = origin.regions().iget(partner, readable.id(), 0, got);
        read.awaitOrThrow(TIMEOUT);
        read.release();
        assertEquals(77, got.get(ValueLayout.JAVA_LONG, 0), "a one-sided read still works");
        assertEquals(0, readable.key(), "a region exposed for reads has no write key");
    }

    private static void refused(final DriverFeature capability, final String operation, final Executable call)
    {
        final DriverException refusal = assertThrows(DriverException.class, call);
        assertEquals(DriverError.UNSUPPORTED, refusal.kind(), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("provider 'user'") &&
            refusal.getMessage().contains(capability.name()) && refusal.getMessage().startsWith(operation),
            refusal.getMessage());
    }
}
