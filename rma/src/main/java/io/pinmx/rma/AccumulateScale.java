package io.pinmx.rma;

/**
 * The {@code scale} of an accumulate ({@code target += scale * source}); its type is the element type
 * of the accumulate, so a scale and the data it applies to cannot disagree. Integral scales keep their
 * exact value; float scales are applied in float arithmetic, double scales in double.
 */
public final class AccumulateScale
{
    private final ElementType type;
    private final long integral;
    private final double re;
    private final double im;

    private AccumulateScale(final ElementType type, final long integral, final double re, final double im)
    {
        this.type = type;
        this.integral = integral;
        this.re = re;
        this.im = im;
    }

    public static AccumulateScale ofInt(final int scale)
    {
        return new AccumulateScale(ElementType.INT, scale, 0, 0);
    }

    public static AccumulateScale ofLong(final long scale)
    {
        return new AccumulateScale(ElementType.LONG, scale, 0, 0);
    }

    public static AccumulateScale ofFloat(final float scale)
    {
        return new AccumulateScale(ElementType.FLOAT, 0, scale, 0);
    }

    public static AccumulateScale ofDouble(final double scale)
    {
        return new AccumulateScale(ElementType.DOUBLE, 0, scale, 0);
    }

    public static AccumulateScale ofComplexFloat(final float re, final float im)
    {
        return new AccumulateScale(ElementType.COMPLEX_FLOAT, 0, re, im);
    }

    public static AccumulateScale ofComplexDouble(final double re, final double im)
    {
        return new AccumulateScale(ElementType.COMPLEX_DOUBLE, 0, re, im);
    }

    public ElementType type()
    {
        return type;
    }

    /** @return the scale of INT and LONG accumulates. */
    public long integral()
    {
        return integral;
    }

    /** @return the (real part of the) scale of FLOAT, DOUBLE and COMPLEX accumulates. */
    public double re()
    {
        return re;
    }

    /** @return the imaginary part of a COMPLEX scale. */
    public double im()
    {
        return im;
    }

    @Override
    public String toString()
    {
        return switch (type)
        {
            case INT, LONG -> type + " " + integral;
            case FLOAT, DOUBLE -> type + " " + re;
            case COMPLEX_FLOAT, COMPLEX_DOUBLE -> type + " (" + re + ", " + im + ")";
        };
    }
}
