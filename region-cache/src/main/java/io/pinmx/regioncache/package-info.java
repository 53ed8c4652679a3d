/**
 * The user-space cache of declared regions (Open-MX's region cache): it maps vectors of
 * native {@link java.lang.foreign.MemorySegment}s to the small integer ids a driver
 * declared for them, reuses them across requests and undeclares least recently used idle
 * ones to stay within a region count and a byte capacity. Pinning is not its concern: the
 * driver pins and unpins declared regions on its own.
 * <p>
 * Owns {@link io.pinmx.regioncache.RegionCache}, its leases, indexes, idle list, undeclare queue and statistics. It
 * calls nothing but the JDK and the {@link io.pinmx.regioncache.RegionDeclarer} its user
 * supplies; the endpoint library adapts that interface to the driver contract.
 */
package io.pinmx.regioncache;
