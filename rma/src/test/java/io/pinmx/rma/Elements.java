package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Test helpers for accumulate element types: a scale of a whole value, and an element's (real part's) value, read
 * or written as a double.
 */
final class Elements
{
    private Elements()
    {
    }

    static AccumulateScale scale(final ElementType type, final int s)
    {
        return switch (type)
        {
            case INT -> AccumulateScale.ofInt(s);
            case LONG -> AccumulateScale.ofLong(s);
            case FLOAT -> AccumulateScale.ofFloat(s);
            case DOUBLE -> AccumulateScale.ofDouble(s);
            case COMPLEX_FLOAT -> AccumulateScale.ofComplexFloat(s, 0);
            case COMPLEX_DOUBLE -> AccumulateScale.ofComplexDouble(s, 0);
        };
    }

    /** Sets element e (for complex types its real part; the imaginary part is left as it is). */
    static void set(final ElementType type, final MemorySegment s, final int e, final int v)
    {
        switch (type)
        {
            case INT -> s.setAtIndex(ValueLayout.JAVA_INT, e, v);
            case LONG -> s.setAtIndex(ValueLayout.JAVA_LONG, e, v);
            case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT, e, v);
            case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, e, v);
            case COMPLEX_FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * e, v);
            case COMPLEX_DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, 2L * e, v);
        }
    }

    /** @return element e (for complex types its real part). */
    static double get(final ElementType type, final MemorySegment s, final int e)
    {
        return switch (type)
        {
            case INT -> s.getAtIndex(ValueLayout.JAVA_INT, e);
            case LONG -> s.getAtIndex(ValueLayout.JAVA_LONG, e);
            case FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT, e);
            case DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE, e);
            case COMPLEX_FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * e);
            case COMPLEX_DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * e);
        };
    }
}
