package io.pinmx.rma;

/**
 * The element-wise operations of ARMCI's reduction helpers ({@code armci_msg_igop}, {@code lgop}, {@code fgop},
 * {@code dgop}): {@code +}, {@code *}, {@code min}, {@code max}, {@code absmin}, {@code absmax} on every type, and
 * for ints and longs also the bitwise {@code or} / {@code and} and the logical {@code ||} / {@code &&} (results 1 or
 * 0). ABSMIN and ABSMAX give the absolute value; an int's or long's absolute values compare unsigned, so the most
 * negative value is the largest. Integer sums and products wrap around.
 */
public enum ReduceOp
{
    SUM(true),
    PROD(true),
    MIN(true),
    MAX(true),
    ABSMIN(true),
    ABSMAX(true),
    OR(false),
    AND(false),
    LOGICAL_OR(false),
    LOGICAL_AND(false);

    private final boolean onFloatingPoint;

    ReduceOp(final boolean onFloatingPoint)
    {
        this.onFloatingPoint = onFloatingPoint;
    }

    /** @return true if the operation is defined on the type (float and double take the arithmetic ones only). */
    public boolean appliesTo(final ElementType type)
    {
        return switch (type)
        {
            case INT, LONG -> true;
            case FLOAT, DOUBLE -> onFloatingPoint;
            case COMPLEX_FLOAT, COMPLEX_DOUBLE -> false;
        };
    }

    int apply(final int a, final int b)
    {
        return switch (this)
        {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case ABSMIN -> Integer.compareUnsigned(Math.abs(a), Math.abs(b)) <= 0 ? Math.abs(a) : Math.abs(b);
            case ABSMAX -> Integer.compareUnsigned(Math.abs(a), Math.abs(b)) >= 0 ? Math.abs(a) : Math.abs(b);
            case OR -> a | b;
            case AND -> a & b;
            case LOGICAL_OR -> 0 != a || 0 != b ? 1 : 0;
            case LOGICAL_AND -> 0 != a && 0 != b ? 1 : 0;
        };
    }

    long apply(final long a, final long b)
    {
        return switch (this)
        {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case ABSMIN -> Long.compareUnsigned(Math.abs(a), Math.abs(b)) <= 0 ? Math.abs(a) : Math.abs(b);
            case ABSMAX -> Long.compareUnsigned(Math.abs(a), Math.abs(b)) >= 0 ? Math.abs(a) : Math.abs(b);
            case OR -> a | b;
            case AND -> a & b;
            case LOGICAL_OR -> 0 != a || 0 != b ? 1 : 0;
            case LOGICAL_AND -> 0 != a && 0 != b ? 1 : 0;
        };
    }

    /** Only the arithmetic operations reach here ({@link #appliesTo} is checked first). */
    double apply(final double a, final double b)
    {
        return switch (this)
        {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case ABSMIN -> Math.min(Math.abs(a), Math.abs(b));
            case ABSMAX -> Math.max(Math.abs(a), Math.abs(b));
            case OR, AND, LOGICAL_OR, LOGICAL_AND -> throw new IllegalStateException(this + " on floating point");
        };
    }

    /** Float arithmetic in float, so every rank rounds as a C float reduction would. */
    float apply(final float a, final float b)
    {
        return switch (this)
        {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case ABSMIN -> Math.min(Math.abs(a), Math.abs(b));
            case ABSMAX -> Math.max(Math.abs(a), Math.abs(b));
            case OR, AND, LOGICAL_OR, LOGICAL_AND -> throw new IllegalStateException(this + " on floating point");
        };
    }
}
