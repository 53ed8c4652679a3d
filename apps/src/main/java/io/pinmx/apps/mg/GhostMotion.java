package io.pinmx.apps.mg;

import java.util.Locale;

/**
 * How the one-sided MG moves a ghost plane: the owner puts it into its neighbour's slot (the target's data server
 * applies it on the driver tier), or the owner publishes it in its own slot and the neighbour gets it (a pull the
 * driver serves without the owner's application or data-server thread).
 */
enum GhostMotion
{
    PUT,
    GET;

    /** The word a command line names it by. */
    String word()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    static GhostMotion named(final String word)
    {
        for (final GhostMotion motion : values())
        {
            if (motion.word().equals(word))
            {
                return motion;
            }
        }
        throw new IllegalArgumentException("ghost motion '" + word + "' is not one of put, get");
    }
}
