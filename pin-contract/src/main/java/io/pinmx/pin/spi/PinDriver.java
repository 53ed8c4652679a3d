package io.pinmx.pin.spi;

/**
 * A provider of the driver contract. Providers register through
 * {@link java.util.ServiceLoader} so tools such as the admin CLI can list them.
 */
public interface PinDriver
{
    /**
     * @return what this provider is, why it is usable here, its limits and features.
     */
    DriverInfo info();

    /**
     * Open endpoint {@code (board, endpoint index)} with a fresh random non-zero session id.
     *
     * @param config which endpoint and the provider's options.
     * @return the open endpoint, owned by the caller until closed.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} for an index out of the
     *                         provider's limits, {@link DriverError#NO_RESOURCES} when the
     *                         endpoint is already open, {@link DriverError#SYSTEM} with the errno.
     */
    DriverEndpoint open(EndpointConfig config);
}
