/**
 * The admin command line, {@link io.pinmx.pin.admin.PinmxAdmin} (started by bin/pinmx-admin): {@code info}
 * (providers, which one a job would use and why, the kernel module), {@code endpoints} (open on this host),
 * {@code counters} (each endpoint's published ones and the kernel module's), {@code peers} (the host's peer
 * table) and {@code jvm-flags}; each command builds a {@link io.pinmx.pin.admin.Report} printed as text or, with
 * {@code --json}, as JSON.
 * <p>
 * May call {@link io.pinmx.pin.spi} (providers through {@link java.util.ServiceLoader}),
 * {@link io.pinmx.pin.select} (the choice a job would make), {@link io.pinmx.pin.node}, and two read-only views
 * of the providers' host state: {@link io.pinmx.pin.kernel.KernelModuleStatus} and
 * {@link io.pinmx.pin.user.UserEndpointFile} (in the directory {@link io.pinmx.pin.user.UserDriverOptions#shmDirectory}
 * reads from the environment); nothing else of the provider packages.
 */
package io.pinmx.pin.admin;
