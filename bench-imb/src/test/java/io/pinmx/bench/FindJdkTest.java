package io.pinmx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/find-jdk.sh accepts only a JDK at least as new as the release the build compiles for.
 */
class FindJdkTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path FIND_JDK = ROOT.resolve("scripts/find-jdk.sh");

    @TempDir
    Path jvmDir;

    private record Outcome(int exit, String out, String err)
    {
    }

    private static int buildRelease() throws IOException
    {
        final Matcher m = Pattern.compile("<maven.compiler.release>(\\d+)</maven.compiler.release>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(m.find(), "parent pom names the release");
        return Integer.parseInt(m.group(1));
    }

    /** A directory that looks like a JDK of the given major version to find-jdk (java and javac, the version line). */
    private Path fakeJdk(final String name, final int major) throws IOException
    {
        final Path bin = Files.createDirectories(jvmDir.resolve(name).resolve("bin"));
        final String script = "#!/bin/sh\necho '    java.specification.version = " + major + "' >&2\n";
        for (final String tool : new String[]{ "java", "javac" })
        {
            Files.writeString(bin.resolve(tool), script);
            Files.setPosixFilePermissions(bin.resolve(tool), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return jvmDir.resolve(name);
    }

    private Outcome run(final Path javaHome) throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder(FIND_JDK.toString());
        pb.environment().put("PINMX_JVM_DIR", jvmDir.toString());
        pb.environment().put("JAVA_HOME", null == javaHome ? "" : javaHome.toString());
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "find-jdk.sh did not finish");
        return new Outcome(p.exitValue(), out.trim(), err);
    }

    @Test
    void aJdkOlderThanTheBuildsReleaseIsRefusedNamingTheVersionNeeded() throws Exception
    {
        final int release = buildRelease();
        final Path old = fakeJdk("jdk-old", release - 3);
        final Outcome o = run(old);
        assertEquals(1, o.exit(), o.out());
        assertEquals("", o.out());
        assertTrue(o.err().startsWith("pinmx needs a JDK >= " + release + " (the build compiles for release " + release),
            o.err());
        assertTrue(o.err().contains(old + " (" + (release - 3) + ")"), o.err());
    }

    @Test
    void theNewestJdkAtLeastTheBuildsReleaseIsChosen() throws Exception
    {
        final int release = buildRelease();
        fakeJdk("jdk-old", release - 1);
        final Path exact = fakeJdk("jdk-exact", release);
        assertEquals(new Outcome(0, exact.toString(), ""), run(null));
        final Path newer = fakeJdk("jdk-newer", release + 1);
        assertEquals(new Outcome(0, newer.toString(), ""), run(exact));
    }
}
