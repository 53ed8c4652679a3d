package io.pinmx.pin.spi;

/**
 * A provider as {@code io.pinmx.pin.select.DriverSelector} sees it. Each provider module registers one as a
 * {@link java.util.ServiceLoader} service, so the layers above choose and open a provider without naming its
 * classes.
 */
public interface DriverProvider
{
    /**
     * @return the name a choice gives ({@code user}, {@code kernel}); the same as its drivers'
     *         {@link DriverInfo#providerName()}.
     */
    String name();

    /**
     * @return the order in which an automatic choice tries the providers, highest first.
     */
    int preference();

    /**
     * @return whether endpoints can be opened on this host, and why (naming the device, errno or version); an
     *         empty reason for a provider that needs nothing of the host.
     */
    Availability probe();

    /**
     * @param chosenBecause why it was chosen, reported by {@link DriverInfo#chosenBecause()}.
     * @return a driver of this provider.
     */
    PinDriver create(String chosenBecause);

    /**
     * @return what {@code --version} says of this provider beside the project's version (the kernel binding: its ABI
     *         version and whether pinmx.ko is loaded, in which version); empty when there is nothing to say.
     */
    default String versionDetails()
    {
        return "";
    }

    /**
     * @param usable true when endpoints can be opened.
     * @param reason why, or why not.
     */
    record Availability(boolean usable, String reason)
    {
    }
}
