package io.pinmx.mpj.jgf;

import java.util.Locale;

/**
 * The suite's problem sizes of section 2; each kernel keeps its own dimensions per size.
 */
enum JgfSize
{
    A, B;

    /**
     * @throws IllegalArgumentException naming the size if it is not one of A and B.
     */
    static JgfSize named(final String name)
    {
        try
        {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("JGF size '" + name + "' is not one of A, B", ex);
        }
    }
}
