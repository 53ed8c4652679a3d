package io.pinmx.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every README.md of the repository keeps {@link ReadmeRules}; the rules themselves are checked on made-up trees,
 * so that the repository check can fail.
 */
class ReadmeRulesTest
{
    /** Overrides where the repository's root is (to check another checkout); else found above this module. */
    private static final String ROOT_PROPERTY = "pinmx.docs.root";

    @Test
    void everyReadmeOfTheRepositoryKeepsTheRules()
    {
        final Path root = repositoryRoot();
        assertTrue(ReadmeRules.readmes(root).size() >= 10, "READMEs found under " + root);
        assertEquals(List.of(), ReadmeRules.violations(root), "READMEs under " + root);
    }

    @Test
    void aReadmeLongerThanTheLimitIsNamedWithItsLength(@TempDir final Path root) throws IOException
    {
        write(root.resolve("fits/README.md"), Collections.nCopies(ReadmeRules.MAX_README_LINES, "text"));
        write(root.resolve("long/README.md"), Collections.nCopies(ReadmeRules.MAX_README_LINES + 1, "text"));

        assertEquals(List.of(Path.of("long/README.md") + ": 251 lines, more than 250"), ReadmeRules.violations(root));
    }

    @Test
    void datedHeadingsAndEntriesAreNamedWithTheirLine(@TempDir final Path root) throws IOException
    {
        write(root.resolve("README.md"), List.of(
            "# part",
            "## Measured (2026-11-26, load average under 1)",
            "2026-11-28 (stop 34), a served block sent",
            "- 2026-11-27: an entry",
            "**2026-11-29, stop 39: a job's first seconds.** text",
            "**Before (2026-11-26 15:55-17:00):** text",
            "Figures come from `results/history-2026-12-05.md`, named mid-sentence.",
            "| size | 2026 |"));

        final List<String> violations = ReadmeRules.violations(root);

        assertEquals(List.of(2, 3, 4, 5, 6), violations.stream()
            .map(violation -> Integer.parseInt(violation.split(":")[1]))
            .toList(), String.join("\n", violations));
        assertTrue(violations.getFirst().startsWith("README.md:2: dated heading or entry: ## Measured (2026-11-26"),
            violations.getFirst());
    }

    @Test
    void buildOutputAndVendoredKernelTreesAreNotTheProjectsReadmes(@TempDir final Path root) throws IOException
    {
        final List<String> longDated = Collections.nCopies(ReadmeRules.MAX_README_LINES + 1, "2026-11-26 entry");
        write(root.resolve("kmod/linux-6.1/README.md"), longDated);
        write(root.resolve("rma/target/README.md"), longDated);
        write(root.resolve("build/README.md"), longDated);
        write(root.resolve("kmod/README.md"), List.of("# kmod"));

        assertEquals(List.of(root.resolve("kmod/README.md")), ReadmeRules.readmes(root));
        assertEquals(List.of(), ReadmeRules.violations(root));
    }

    private static Path repositoryRoot()
    {
        final String configured = System.getProperty(ROOT_PROPERTY);
        if (configured != null)
        {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("run-tests.sh")) && Files.isDirectory(dir.resolve("kmod")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (run-tests.sh and kmod/) above " +
            Path.of("").toAbsolutePath() + "; set -D" + ROOT_PROPERTY);
    }

    private static void write(final Path file, final List<String> lines) throws IOException
    {
        Files.createDirectories(file.getParent());
        Files.write(file, lines);
    }
}
