package io.pinmx.mpj.jgf;

import java.io.Serializable;

/** The object the suite's object variants move: one double, serialised by MPJ. */
final class BoxedDouble implements Serializable
{
    private static final long serialVersionUID = 1L;

    double value;

    BoxedDouble(final double value)
    {
        this.value = value;
    }
}
