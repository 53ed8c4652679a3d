package io.pinmx.mx.example;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example is this module's {@link HelloPeer}, verbatim, and it runs as two plain {@code java -cp}
 * processes: no JVM flags, none smuggled in through JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS.
 */
class HelloPeerTest
{
    private static final Path SOURCE = Path.of("src/test/java/io/pinmx/mx/example/HelloPeer.java");
    private static final Path README = Path.of("README.md");
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopLeftovers()
    {
        started.forEach(Process::destroyForcibly);
    }

    private Process plainJava(final String name, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), HelloPeer.class.getName()));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile());
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().remove("_JAVA_OPTIONS");
        final Process p = pb.start();
        started.add(p);
        return p;
    }

    private String read(final String file) throws IOException
    {
        return Files.readString(dir.resolve(file));
    }

    private void assertClean(final Process p, final String name) throws Exception
    {
        assertTrue(p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), name + " did not finish");
        final String err = read(name + ".err");
        assertEquals(0, p.exitValue(), err);
        assertFalse(err.contains("Exception") || err.contains("Error"), err);
        // the only word about node-wide state: counters are not published without Chronicle's flags, said once
        assertEquals(1, err.lines().filter(l -> l.contains("are not published")).count(), err);
    }

    @Test
    void twoPlainJavaProcessesExchangeHelloWithoutExtraFlags() throws Exception
    {
        final Process listener = plainJava("listener", "listen");
        await().atMost(DEADLINE).until(() -> read("listener.out").contains("\n"));
        final String[] where = read("listener.out").lines().findFirst().orElseThrow().split(" ");
        assertEquals("listening", where[0], read("listener.out"));

        final Process sender = plainJava("sender", "send", where[2], where[3]);
        assertClean(sender, "sender");
        assertClean(listener, "listener");
        assertEquals("received 'hello back'\n", read("sender.out"));
        assertTrue(read("listener.out").endsWith("\nreceived 'hello'\n"), read("listener.out"));
    }

    @Test
    void aBadCommandLineIsAUsageError() throws Exception
    {
        final Process p = plainJava("bad", "send", "udp:127.0.0.1:1");
        assertTrue(p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        assertEquals(2, p.exitValue());
        assertTrue(read("bad.err").startsWith("usage: HelloPeer listen"), read("bad.err"));
    }

    @Test
    void theReadmeShowsThisExactProgram() throws IOException
    {
        final String program = Files.readString(SOURCE);
        final String readme = Files.readString(README);
        assertTrue(readme.contains("```java\n" + program + "```\n"),
            "userlib/README.md must show " + SOURCE + " verbatim in a ```java block");
    }
}
