package io.pinmx.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rules every README.md of the repository keeps, so that a README says what its part does today: at most
 * {@link #MAX_README_LINES} lines, and no dated heading or entry (measurement histories live in dated files under a
 * module's {@code results/}). Build output, git's own files and vendored kernel trees ({@code kmod/linux*}) are not
 * the project's READMEs and are skipped.
 */
final class ReadmeRules
{
    static final int MAX_README_LINES = 250;

    private static final String DATE = "20\\d\\d-\\d\\d-\\d\\d";
    /** A line that starts with a date, after any heading, list, quote or emphasis markup. */
    private static final Pattern DATED_ENTRY =
        Pattern.compile("^\\s*(?:#+\\s*|[-*+]\\s+|>\\s*|\\d+\\.\\s+)*(?:\\*\\*|__|\\*|_)?\\(?" + DATE);
    /** A heading, or a bold paragraph lead that stands for one, that names a date anywhere. */
    private static final Pattern DATED_HEADING =
        Pattern.compile("^\\s*(?:#+\\s.*" + DATE + "|\\*\\*[^*]*" + DATE + "[^*]*\\*\\*)");

    private ReadmeRules()
    {
    }

    /** Every README.md under {@code root} that the rules cover, in path order. */
    static List<Path> readmes(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            return paths
                .filter(path -> path.getFileName() != null && "README.md".equals(path.getFileName().toString()))
                .filter(path -> !isSkipped(root.relativize(path)))
                .sorted()
                .toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list READMEs under " + root, ex);
        }
    }

    /** One line per broken rule, naming the file relative to {@code root}, the line and the rule. */
    static List<String> violations(final Path root)
    {
        final List<String> violations = new ArrayList<>();
        for (final Path readme : readmes(root))
        {
            final Path name = root.relativize(readme);
            final List<String> lines = readLines(readme);
            if (lines.size() > MAX_README_LINES)
            {
                violations.add(name + ": " + lines.size() + " lines, more than " + MAX_README_LINES);
            }
            for (int i = 0; i < lines.size(); i++)
            {
                final String line = lines.get(i);
                if (DATED_ENTRY.matcher(line).find() || DATED_HEADING.matcher(line).find())
                {
                    violations.add(name + ":" + (i + 1) + ": dated heading or entry: " + line.strip());
                }
            }
        }
        return violations;
    }

    private static boolean isSkipped(final Path relative)
    {
        for (int i = 0; i < relative.getNameCount() - 1; i++)
        {
            final String part = relative.getName(i).toString();
            if ("target".equals(part) || ".git".equals(part) || "build".equals(part) || "node_modules".equals(part))
            {
                return true;
            }
        }
        return relative.getNameCount() > 2 && "kmod".equals(relative.getName(0).toString()) &&
            relative.getName(1).toString().startsWith("linux");
    }

    private static List<String> readLines(final Path readme)
    {
        try
        {
            return Files.readAllLines(readme);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + readme, ex);
        }
    }
}
