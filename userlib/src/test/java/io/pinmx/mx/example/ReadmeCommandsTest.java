package io.pinmx.mx.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's HelloPeer commands as a new user runs them on stock Debian 12, where {@code java} and {@code mvn} are
 * JDK 17: the lines before the class path's find the project's JDK (one at least the build's release) for both, and
 * no line leaves a file in the repository's root. {@link HelloPeerTest} runs the two {@code java -cp} commands.
 */
class ReadmeCommandsTest
{
    private static final Path README = Path.of("README.md");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Where Debian 12's own JDK lives; the user's PATH finds its java first. */
    private static final Path DEBIAN_JDK = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin");
    private static final long DEADLINE_S = 120;

    @TempDir
    Path dir;

    private static List<String> commands() throws Exception
    {
        final String readme = Files.readString(README);
        final Matcher block = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL)
            .matcher(readme.substring(readme.indexOf("## Using it")));
        assertTrue(block.find(), "no sh block under 'Using it'");
        return block.group(1).lines().toList();
    }

    private static int release() throws Exception
    {
        final Matcher m = Pattern.compile("<maven.compiler.release>([0-9]+)</maven.compiler.release>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(m.find());
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theSetUpLinesGiveJavaAndMavenTheProjectsJdkWhereJavaIs17() throws Exception
    {
        final List<String> setUp = new ArrayList<>();
        for (final String line : commands())
        {
            if (line.startsWith("CP="))
            {
                break;
            }
            setUp.add(line);
        }
        final String script = String.join("\n", setUp) + "\n" +
            "java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = /java /p'\n" +
            "mvn -v | sed -n 's/^Java version: \\([0-9]*\\).*/mvn \\1/p'\n";
        final ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile())
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        pb.environment().remove("JAVA_HOME");
        if (Files.isDirectory(DEBIAN_JDK))
        {
            pb.environment().put("PATH", DEBIAN_JDK + ":" + pb.environment().get("PATH"));
        }
        final Process p = pb.start();
        assertTrue(p.waitFor(DEADLINE_S, TimeUnit.SECONDS), "the README's set-up did not finish");
        final String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), err);
        final List<String> seen = Files.readString(dir.resolve("out")).lines().toList();
        assertEquals(2, seen.size(), seen + " " + err);
        for (final String line : seen)
        {
            final String[] tool = line.split(" ");
            assertTrue(Integer.parseInt(tool[1]) >= release(), tool[0] + " runs on JDK " + tool[1] + ": " + err);
        }
    }

    @Test
    void noCommandLeavesAFileInTheRepository() throws Exception
    {
        for (final String line : commands())
        {
            final String command = line.replaceAll("\\s+#.*$", "");
            assertFalse(command.contains(">") || command.contains("outputFile") || command.contains("cp.txt"),
                "writes a file: " + line);
        }
        assertTrue(commands().stream().anyMatch(l -> l.startsWith("CP=") && l.contains("$(pinmx_classpath userlib)")),
            "the class path comes from scripts/lib.sh's pinmx_classpath, whose files stay under target/");
    }
}
