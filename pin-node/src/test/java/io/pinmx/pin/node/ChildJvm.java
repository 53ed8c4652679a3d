package io.pinmx.pin.node;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a real second JVM running a main class of the test classpath with this JVM's module
 * flags (Chronicle Map's --add-opens, native access, analytics off).
 */
final class ChildJvm
{
    private ChildJvm()
    {
    }

    static Process start(final Path log, final Class<?> mainClass, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-opens") || argument.startsWith("--add-exports") ||
                argument.startsWith("--enable-native-access") || argument.startsWith("-Dchronicle."))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
