package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/environment.md against the code: every {@code PINMX_} name in the repository's scripts, Java and build files
 * is on the page (by name, or in a family such as {@code PINMX_IOC_*}), and every name and family on the page is
 * still in the code. The kernel module's C sources are left out: their macros are the ABI's, listed as families.
 */
class EnvironmentPageTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path PAGE = ROOT.resolve("docs/environment.md");
    private static final Pattern NAME = Pattern.compile("PINMX_[A-Z][A-Z0-9_]*");
    private static final Pattern PAGE_NAME = Pattern.compile("`(PINMX_[A-Z][A-Z0-9_]*?)(_\\*)?`");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", "build", "results", ".mvn");
    private static final Set<String> SKIPPED_SUFFIXES = Set.of(".md", ".c", ".h", ".txt", ".png", ".svg", ".csv",
        ".json", ".jar", ".dat", ".properties", ".log", ".ko", ".o");

    /** Each name in the code, with one file that holds it. */
    private static TreeMap<String, Path> namesInCode() throws IOException
    {
        final TreeMap<String, Path> names = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT))
        {
            files.filter(EnvironmentPageTest::scanned).forEach(file ->
            {
                final Matcher m = NAME.matcher(read(file));
                while (m.find())
                {
                    names.putIfAbsent(m.group(), ROOT.relativize(file));
                }
            });
        }
        return names;
    }

    private static boolean scanned(final Path file)
    {
        final Path relative = ROOT.relativize(file);
        for (final Path part : relative)
        {
            if (SKIPPED_DIRECTORIES.contains(part.toString()))
            {
                return false;
            }
        }
        final String name = file.getFileName().toString();
        return Files.isRegularFile(file) && SKIPPED_SUFFIXES.stream().noneMatch(name::endsWith);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final MalformedInputException binary)
        {
            return "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Test
    void everyNameInTheCodeIsOnThePageAndEveryNameOnThePageIsInTheCode() throws IOException
    {
        final Set<String> exact = new TreeSet<>();
        final Set<String> families = new TreeSet<>();
        final Matcher m = PAGE_NAME.matcher(Files.readString(PAGE));
        while (m.find())
        {
            (null == m.group(2) ? exact : families).add(null == m.group(2) ? m.group(1) : m.group(1) + "_");
        }
        final TreeMap<String, Path> code = namesInCode();

        final Set<String> missing = new TreeSet<>();
        code.forEach((name, file) ->
        {
            if (!exact.contains(name) && families.stream().noneMatch(name::startsWith))
            {
                missing.add(name + " (" + file + ")");
            }
        });
        assertEquals(Set.of(), missing, "PINMX_ names in the code but not on docs/environment.md");

        final Set<String> stale = new TreeSet<>(exact);
        stale.removeAll(code.keySet());
        for (final String family : families)
        {
            if (code.keySet().stream().noneMatch(n -> n.startsWith(family)))
            {
                stale.add(family + "*");
            }
        }
        assertEquals(Set.of(), stale, "names on docs/environment.md that no code holds any more");
        assertTrue(exact.contains("PINMX_DRIVER") && families.contains("PINMX_IOC_"), exact + " " + families);
    }
}
