package io.pinmx.pin.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/pinmx-admin as a user runs it: its exit status says done (0), failed (1) or bad command line (2), errors
 * are one line without a stack trace, and nothing but the command's output reaches the terminal.
 */
class PinmxAdminScriptTest
{
    private static final Path SCRIPT = Path.of("..", "bin", "pinmx-admin").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err)
    {
    }

    private Outcome run(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(SCRIPT.toString(),
            "--peers-file", dir.resolve("peers.dat").toString(), "--counters-file", dir.resolve("counters.dat").toString()));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        final Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "pinmx-admin did not finish");
        final Outcome o = new Outcome(p.exitValue(), read("out"), read("err"));
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat ") || o.err().contains("WARNING") ||
            o.err().contains("SLF4J") || o.err().contains("[INFO]"), o.err());
        return o;
    }

    private String read(final String name) throws IOException
    {
        return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
    }

    @Test
    void exitStatusIsZeroOneOrTwoAndErrorsAreOneLine() throws Exception
    {
        final Outcome info = run("--json", "info");
        assertEquals(0, info.exit(), info.err());
        assertEquals("", info.err());
        assertTrue(info.out().startsWith("{\"providers\":[") && info.out().endsWith("}\n"), info.out());

        final Outcome peers = run("peers", "add", "node-a", "udp:10.0.0.1:40000");
        assertEquals(new Outcome(0, "added node-a 0 udp:10.0.0.1:40000\n", ""), peers);
        assertEquals(new Outcome(0, "node-a 0 udp:10.0.0.1:40000\n", ""), run("peers"));

        final Outcome missing = run("counters", "udp:10.0.0.9:1/0");
        assertEquals(1, missing.exit(), missing.err());
        assertEquals("pinmx-admin: no counters published by endpoint udp:10.0.0.9:1/0: no counters file " +
            dir.resolve("counters.dat") + "\n", missing.err());

        final Outcome usage = run("frobnicate");
        assertEquals(2, usage.exit());
        assertEquals("pinmx-admin: unknown command 'frobnicate' (pinmx-admin --help lists the commands)\n", usage.err());
        assertEquals("", usage.out());
    }
}
