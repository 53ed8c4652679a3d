package io.pinmx.regioncache;

import java.io.Serial;

/**
 * The driver has no room for another region. A {@link RegionDeclarer} throws it from {@code declare} when the
 * driver's region table is full, and the {@link RegionCache} then undeclares its least recently used idle region and
 * declares again; the cache throws it itself, with the declarer's as the cause, when no idle region is left to make
 * room with.
 */
public final class RegionTableFullException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    public RegionTableFullException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
