package io.pinmx.pin.select;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverProvider;
import io.pinmx.pin.spi.PinDriver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Picks the provider among those on the class path ({@link DriverProvider} services): in an automatic choice the
 * first, by preference, that can run here (the kernel one when /dev/pinmx exists and its module speaks this
 * library's ABI version, the user-space one otherwise). The system property {@value #PROPERTY} or else the
 * environment variable {@value #VARIABLE} ({@code kernel}, {@code user} or {@code auto}, the default) forces a
 * choice; forcing a provider that cannot run fails naming why rather than falling back. The chosen provider's
 * {@code info().chosenBecause()} says which rule chose it.
 */
public final class DriverSelector
{
    /** System property that forces a provider. */
    public static final String PROPERTY = "pinmx.driver";
    /** Environment variable that forces a provider when the property is absent. */
    public static final String VARIABLE = "PINMX_DRIVER";
    /** The choice that takes the first provider, by preference, that can run here. */
    public static final String AUTO = "auto";

    private DriverSelector()
    {
    }

    /**
     * @return the provider for this process: forced by {@value #PROPERTY} / {@value #VARIABLE}, else the first
     * that can run here.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming an unknown choice, or
     *                         {@link DriverError#NO_RESOURCES} when a forced provider cannot run.
     */
    public static PinDriver select()
    {
        final String property = System.getProperty(PROPERTY);
        final String variable = System.getenv(VARIABLE);
        final String forcedBy = null != property ? "-D" + PROPERTY + "=" + property :
            null != variable ? VARIABLE + "=" + variable : null;
        return select(null != property ? property : variable, forcedBy);
    }

    /**
     * @param choice   a provider's name, {@code auto} or null (auto).
     * @param forcedBy how the choice was given, for the reason ("PINMX_DRIVER=user"), or null.
     * @return the provider for that choice among those on the class path.
     */
    public static PinDriver select(final String choice, final String forcedBy)
    {
        return select(choice, forcedBy, installed());
    }

    /**
     * @param choice    a provider's name, {@code auto} or null (auto).
     * @param forcedBy  how the choice was given, for the reason ("-Dpinmx.driver=user"), or null.
     * @param providers the providers to choose from.
     * @return the provider, with why it was chosen.
     */
    public static PinDriver select(final String choice, final String forcedBy, final List<DriverProvider> providers)
    {
        final String normalised = null == choice || choice.isBlank() ? AUTO : choice.trim();
        final List<DriverProvider> ordered = new ArrayList<>(providers);
        ordered.sort(Comparator.comparingInt(DriverProvider::preference).reversed());
        if (AUTO.equals(normalised))
        {
            final List<String> passedOver = new ArrayList<>();
            for (final DriverProvider provider : ordered)
            {
                final DriverProvider.Availability availability = provider.probe();
                if (availability.usable())
                {
                    return provider.create(!passedOver.isEmpty() ? String.join("; ", passedOver) :
                        availability.reason().isEmpty() ? "the first provider on the class path" : availability.reason());
                }
                passedOver.add(availability.reason());
            }
            throw new DriverException(DriverError.NO_RESOURCES, "no driver can run here: " +
                (passedOver.isEmpty() ? "no provider on the class path" : String.join("; ", passedOver)));
        }
        for (final DriverProvider provider : ordered)
        {
            if (provider.name().equals(normalised))
            {
                final DriverProvider.Availability availability = provider.probe();
                if (!availability.usable())
                {
                    throw new DriverException(DriverError.NO_RESOURCES, provider.name() + " driver forced by " +
                        forcedBy + " cannot run: " + availability.reason());
                }
                return provider.create("forced by " + forcedBy +
                    (availability.reason().isEmpty() ? "" : "; " + availability.reason()));
            }
        }
        throw new DriverException(DriverError.BAD_ARGUMENT, "driver choice '" + choice + "'" +
            (null == forcedBy ? "" : " (" + forcedBy + ")") + ": expected " + names(ordered) + " or " + AUTO);
    }

    /**
     * @return the providers on the class path.
     */
    public static List<DriverProvider> installed()
    {
        final List<DriverProvider> providers = new ArrayList<>();
        ServiceLoader.load(DriverProvider.class).forEach(providers::add);
        return providers;
    }

    private static String names(final List<DriverProvider> providers)
    {
        final List<String> names = new ArrayList<>();
        providers.forEach(p -> names.add(p.name()));
        return String.join(", ", names);
    }
}
