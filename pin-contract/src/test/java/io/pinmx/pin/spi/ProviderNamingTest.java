package io.pinmx.pin.spi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering rule of the contract: no main code outside the providers' own modules names a provider's package
 * ({@code io.pinmx.pin.user}, {@code io.pinmx.pin.kernel}); it reaches them through {@code DriverSelector} and
 * provider options by key. The admin tool is the one module above that may, as it reports each provider's host
 * state. Tests are free to: they test provider behaviour.
 */
class ProviderNamingTest
{
    /** Modules whose main code may name a provider's package. */
    private static final Set<String> ALLOWED = Set.of("pin-user", "pin-kernel", "pin-admin");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PROVIDER_NAME = Pattern.compile("\\bio\\.pinmx\\.pin\\.(user|kernel)\\b");

    @Test
    void noMainCodeAboveTheContractNamesAProvidersPackage() throws IOException
    {
        final Path root = Path.of("").toAbsolutePath().getParent();
        final List<String> modules = modules(root);
        assertTrue(modules.contains("pin-contract") && modules.contains("userlib") && modules.contains("rma"),
            "the root pom's modules: " + modules);
        final List<String> offences = new ArrayList<>();
        for (final String module : modules)
        {
            if (!ALLOWED.contains(module))
            {
                offences.addAll(namings(root.resolve(module).resolve("src/main/java")));
            }
        }
        assertEquals(List.of(), offences, "main code outside " + ALLOWED + " names a provider's package");
    }

    @Test
    void theCheckFindsANamingInAnImportOrInTheText() throws IOException
    {
        final Path main = Files.createTempDirectory("provider-naming");
        try
        {
            Files.writeString(main.resolve("A.java"), "package a;\nimport io.pinmx.pin.user.UserDriverOptions;\n");
            Files.writeString(main.resolve("B.java"), "package b;\nclass B { Object k = io.pinmx.pin.kernel.PinmxAbi.class; }\n");
            Files.writeString(main.resolve("C.java"), "package c;\nimport io.pinmx.pin.spi.PinDriver;\n// io.pinmx.pin.userland\n");
            assertEquals(List.of(main.resolve("A.java") + ":2: import io.pinmx.pin.user.UserDriverOptions;",
                main.resolve("B.java") + ":2: class B { Object k = io.pinmx.pin.kernel.PinmxAbi.class; }"),
                namings(main));
        }
        finally
        {
            try (Stream<Path> files = Files.list(main))
            {
                for (final Path file : files.toList())
                {
                    Files.delete(file);
                }
            }
            Files.delete(main);
        }
    }

    private static List<String> modules(final Path root) throws IOException
    {
        final List<String> modules = new ArrayList<>();
        final Matcher matcher = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        while (matcher.find())
        {
            modules.add(matcher.group(1));
        }
        return modules;
    }

    private static List<String> namings(final Path sources) throws IOException
    {
        final List<String> found = new ArrayList<>();
        if (!Files.isDirectory(sources))
        {
            return found;
        }
        try (Stream<Path> files = Files.walk(sources))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList())
            {
                final List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++)
                {
                    if (PROVIDER_NAME.matcher(lines.get(i)).find())
                    {
                        found.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        return found;
    }
}
