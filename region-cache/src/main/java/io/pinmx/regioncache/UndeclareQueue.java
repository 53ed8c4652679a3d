package io.pinmx.regioncache;

/**
 * Regions that left the cache and wait for the driver to undeclare their ids. The {@link RegionCache} queues them
 * under its lock and takes the whole queue before it lets the lock go; the ids are undeclared outside the lock, after
 * the regions left the indexes, so the driver cannot hand an id out again while a lookup could still find its old
 * region. Not thread-safe: {@link #add} and {@link #takeAll} run under the cache's lock.
 */
final class UndeclareQueue
{
    private final RegionDeclarer declarer;
    /** Linked through {@code undeclareNext}. */
    private CachedRegion head;

    UndeclareQueue(final RegionDeclarer declarer)
    {
        this.declarer = declarer;
    }

    void add(final CachedRegion region)
    {
        region.undeclareNext = head;
        head = region;
    }

    boolean isEmpty()
    {
        return null == head;
    }

    /** Empties the queue; the chain it returns is the caller's to {@link #undeclareAll}. */
    CachedRegion takeAll()
    {
        final CachedRegion taken = head;
        head = null;
        return taken;
    }

    /**
     * Undeclares every region of a chain {@link #takeAll} returned, outside the cache's lock. Every undeclare is
     * attempted; the first failure is thrown once all were, later ones suppressed into it.
     */
    void undeclareAll(final CachedRegion chain)
    {
        RuntimeException failure = null;
        CachedRegion region = chain;
        while (null != region)
        {
            final CachedRegion next = region.undeclareNext;
            region.undeclareNext = null;
            try
            {
                declarer.undeclare(region.regionId);
            }
            catch (final RuntimeException ex)
            {
                if (null == failure)
                {
                    failure = ex;
                }
                else
                {
                    failure.addSuppressed(ex);
                }
            }
            region = next;
        }
        if (null != failure)
        {
            throw failure;
        }
    }
}
