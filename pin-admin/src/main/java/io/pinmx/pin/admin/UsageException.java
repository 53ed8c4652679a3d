package io.pinmx.pin.admin;

import java.io.Serial;

/**
 * The command line is wrong; the message says what, and the usage text follows it.
 */
final class UsageException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    UsageException(final String message)
    {
        super(message);
    }
}
