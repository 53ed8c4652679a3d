package io.pinmx.pin.select;

import io.pinmx.pin.kernel.PinmxAbi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The line {@code --version} prints, the same from every program as from {@code bin/pinmx-run --version}:
 * {@code pinmx VERSION, ABI N, pinmx.ko ...}: the project's version (from the build), the ABI version this library
 * speaks, and whether pinmx.ko is loaded and which version it is.
 */
public final class PinmxVersion
{
    private static final String RESOURCE = "version.txt";
    private static final Path SYS_MODULE = Path.of("/sys/module/pinmx");

    private PinmxVersion()
    {
    }

    /**
     * @return the version line, without a line end.
     */
    public static String line()
    {
        return line(SYS_MODULE);
    }

    static String line(final Path sysModule)
    {
        return "pinmx " + projectVersion() + ", ABI " + PinmxAbi.ABI_VERSION + ", " + module(sysModule);
    }

    private static String module(final Path sysModule)
    {
        final Path version = sysModule.resolve("version");
        if (Files.isReadable(version))
        {
            try
            {
                return "pinmx.ko " + Files.readString(version).trim() + " loaded";
            }
            catch (final IOException ex)
            {
                return "pinmx.ko loaded (no version)";
            }
        }
        return Files.isDirectory(sysModule) ? "pinmx.ko loaded (no version)" : "pinmx.ko not loaded";
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
