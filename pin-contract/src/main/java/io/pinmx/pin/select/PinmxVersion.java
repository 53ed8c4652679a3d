package io.pinmx.pin.select;

import io.pinmx.pin.spi.DriverProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The line {@code --version} prints, the same from every program as from {@code bin/pinmx-run --version}:
 * {@code pinmx VERSION, ...}: the project's version (from the build), then what each installed provider says of
 * itself ({@link DriverProvider#versionDetails()}: the kernel binding's ABI version and whether pinmx.ko is loaded
 * and which version it is), most preferred provider first.
 */
public final class PinmxVersion
{
    private static final String RESOURCE = "version.txt";

    private PinmxVersion()
    {
    }

    /**
     * @return the version line, without a line end.
     */
    public static String line()
    {
        final List<DriverProvider> providers = new ArrayList<>();
        ServiceLoader.load(DriverProvider.class).forEach(providers::add);
        return line(providers);
    }

    static String line(final List<DriverProvider> providers)
    {
        final StringBuilder line = new StringBuilder("pinmx ").append(projectVersion());
        providers.stream()
            .sorted(Comparator.comparingInt(DriverProvider::preference).reversed())
            .map(DriverProvider::versionDetails)
            .filter(details -> !details.isEmpty())
            .forEach(details -> line.append(", ").append(details));
        return line.toString();
    }

    private static String projectVersion()
    {
        try (InputStream in = PinmxVersion.class.getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException("the build left out " + RESOURCE + " beside " + PinmxVersion.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("reading " + RESOURCE + ": " + ex.getMessage(), ex);
        }
    }
}
