package io.pinmx.pin.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JVM flags node-wide state needs. Chronicle Map reaches into JDK internals, so on JDK 25 it runs only in a
 * JVM started with the parent pom's {@code pinmx.jvm.opens} (copied into the resource {@value #RESOURCE} at
 * build time, their one source). Before anything here touches a Chronicle class, {@link #require} checks that
 * this JVM has every open and export among them, so a program started without them gets one message naming
 * the flags instead of Chronicle's class-initialisation errors; it disables Chronicle's usage analytics,
 * which would otherwise need a flag too, and keeps Chronicle's start-up announcements (INFO, through SLF4J to
 * java.util.logging) out of the programs' output unless the JVM's logging configuration asks for them.
 */
public final class ChronicleFlags
{
    /** Class-path resource holding the flags, space-separated. */
    public static final String RESOURCE = "jvm-flags.txt";
    /** Chronicle's own switch for its usage analytics (it would contact a server otherwise). */
    static final String ANALYTICS_PROPERTY = "chronicle.analytics.disable";

    private static final List<String> FLAGS = load();
    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger CHRONICLE_LOG = Logger.getLogger("net.openhft");

    private ChronicleFlags()
    {
    }

    /**
     * @return every flag a pinmx JVM carries (native access, Chronicle's opens and exports), in command line form.
     */
    public static List<String> all()
    {
        return FLAGS;
    }

    /**
     * @return the {@code --add-opens}/{@code --add-exports} flags this JVM was not started with, empty when
     * Chronicle Map can run here.
     */
    public static List<String> missing()
    {
        final Module unnamed = ChronicleFlags.class.getClassLoader().getUnnamedModule();
        final List<String> missing = new ArrayList<>();
        for (final String flag : FLAGS)
        {
            final boolean opens = flag.startsWith("--add-opens=");
            if (!opens && !flag.startsWith("--add-exports="))
            {
                continue;
            }
            // --add-opens=MODULE/PACKAGE=ALL-UNNAMED
            final String target = flag.substring(flag.indexOf('=') + 1, flag.lastIndexOf('='));
            final String moduleName = target.substring(0, target.indexOf('/'));
            final String packageName = target.substring(target.indexOf('/') + 1);
            final Optional<Module> module = ModuleLayer.boot().findModule(moduleName);
            final boolean granted = module.isPresent() &&
                (opens ? module.get().isOpen(packageName, unnamed) : module.get().isExported(packageName, unnamed));
            if (!granted)
            {
                missing.add(flag);
            }
        }
        return missing;
    }

    /**
     * Call before the first use of Chronicle Map in this JVM.
     *
     * @param what the node-wide state asked for, for the message ("the counters file /dev/shm/pinmx/counters.dat").
     * @throws IllegalStateException naming the missing flags and where they are documented.
     */
    public static void require(final String what)
    {
        final List<String> missing = missing();
        if (!missing.isEmpty())
        {
            throw new IllegalStateException(what + " needs Chronicle Map, which needs JVM flags this JVM was not " +
                "started with: " + String.join(" ", missing) + " (all pinmx JVM flags: `bin/pinmx-admin jvm-flags`; " +
                "README.md, \"JVM flags\")");
        }
        if (null == System.getProperty(ANALYTICS_PROPERTY))
        {
            System.setProperty(ANALYTICS_PROPERTY, "true");
        }
        if (null == CHRONICLE_LOG.getLevel())
        {
            CHRONICLE_LOG.setLevel(Level.WARNING);
        }
    }

    private static List<String> load()
    {
        try (InputStream in = ChronicleFlags.class.getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException("resource " + RESOURCE + " of " + ChronicleFlags.class.getPackageName() +
                    " is missing from the class path (pin-node jar built without its filtered resources)");
            }
            final String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return List.copyOf(Arrays.asList(text.split("\\s+")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + RESOURCE, ex);
        }
    }
}
