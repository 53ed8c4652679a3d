package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.wire.FrameKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * The user-space provider of the driver contract: MXoE frames in UDP datagrams between any hosts, shared-memory
 * rings and single-copy process_vm_readv pulls between endpoints of one host, a progress thread per endpoint
 * serving pulls. It is a transport only: it never pins memory. Endpoint options come from
 * {@link UserDriverOptions} in the {@link EndpointConfig} (defaults otherwise) with the config's {@code user.} keys
 * over them.
 */
public final class UserDriver implements PinDriver
{
    /** Provider name in {@link DriverInfo}. */
    public static final String NAME = "user";
    /** What this provider is, the start of every {@link DriverInfo#chosenBecause()}. */
    public static final String DESCRIPTION = "user-space driver: UDP + same-host shared memory; never pins memory";

    private final String chosenBecause;

    /** Says why it was chosen from whether /dev/pinmx exists. */
    public UserDriver()
    {
        this(Files.exists(Path.of("/dev/pinmx")) ?
            "selected explicitly although /dev/pinmx exists" :
            "no /dev/pinmx on this host (the pinmx kernel module is not loaded)");
    }

    /**
     * @param chosenBecause why the caller picked this provider, for {@link DriverInfo#chosenBecause()}.
     */
    public UserDriver(final String chosenBecause)
    {
        this.chosenBecause = chosenBecause;
    }

    @Override
    public DriverInfo info()
    {
        return info(UserDriverOptions.defaults(), false);
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        final UserDriverOptions given = UserProviderOptions.resolve(config);
        // An opener that keeps polling (the endpoint library's progress thread) is the endpoint's progress: a second
        // spinning thread per endpoint only competes with it for the cores.
        final UserDriverOptions options = config.progressByOpener() ? given.withProgressThread(false) : given;
        return UserEndpoint.open(config.endpointIndex(), options, info(options, config.progressByOpener()));
    }

    private DriverInfo info(final UserDriverOptions options, final boolean progressByOpener)
    {
        final Set<DriverFeature> features = EnumSet.of(DriverFeature.UDP, DriverFeature.LIVENESS_PROBES,
            DriverFeature.REMOTE_WRITE, DriverFeature.REMOTE_ATOMIC);
        if (options.sameHost())
        {
            features.add(DriverFeature.SAME_HOST_SHM);
            features.add(DriverFeature.SAME_HOST_SINGLE_COPY_PULL);
        }
        if (options.progressThread() || progressByOpener)
        {
            features.add(DriverFeature.ASYNC_PULL_SERVING);
        }
        return new DriverInfo(NAME, DESCRIPTION + "; chosen because " + chosenBecause + "; progress " +
            (options.progressThread() ? "by a progress thread per endpoint" :
                progressByOpener ? "by the opener's progress thread, which keeps polling" :
                    "only inside poll/await" + (options.responder() ?
                        " (a responder answers liveness probes when nobody polls)" : "")),
            false, RegionTable.MAX_SEGMENTS, options.maxRegions(), EndpointAddress.MAX_ENDPOINT_INDEX + 1,
            UdpTransport.payloadWithinMtu(options.framePayloadBytes(), FrameKind.MEDIUM_FRAG, options.bindAddress()),
            options.framePayloadBytes(), features);
    }
}
