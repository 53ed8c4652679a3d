package io.pinmx.pin.spi;

import java.io.Serial;

/**
 * A failed driver operation. The message names what was wrong (peer, region id, segment index
 * and address, errno); {@link #kind()} classifies it and {@link #errno()} gives the system error
 * number, or 0 when no system call was involved.
 */
public class DriverException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    private final DriverError kind;
    private final int errno;

    /**
     * @param kind    classification.
     * @param message what was wrong, naming the object concerned.
     */
    public DriverException(final DriverError kind, final String message)
    {
        this(kind, 0, message, null);
    }

    /**
     * @param kind    classification.
     * @param errno   system error number, 0 if none.
     * @param message what was wrong, naming the object concerned.
     * @param cause   underlying failure, or null.
     */
    public DriverException(final DriverError kind, final int errno, final String message, final Throwable cause)
    {
        super(message, cause);
        if (null == kind)
        {
            throw new NullPointerException("kind");
        }
        this.kind = kind;
        this.errno = errno;
    }

    /**
     * @return classification of the failure.
     */
    public DriverError kind()
    {
        return kind;
    }

    /**
     * @return system error number, or 0 when no system call failed.
     */
    public int errno()
    {
        return errno;
    }
}
