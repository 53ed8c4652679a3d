package io.pinmx.rma;

/**
 * A one-sided operation that could not be done: the target rank is gone, or the job's ranks disagree on a
 * collective call. Bad arguments are {@link IllegalArgumentException}s naming the argument instead.
 */
public final class RmaException extends RuntimeException
{
    public RmaException(final String message)
    {
        super(message);
    }

    public RmaException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
