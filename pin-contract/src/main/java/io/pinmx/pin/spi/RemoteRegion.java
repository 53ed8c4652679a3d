package io.pinmx.pin.spi;

/**
 * A region declared for remote writes and atomics ({@link DriverEndpoint#declareRemoteRegion}): its id, and the
 * random key every remote write or atomic on it must carry. Handing the key to a peer is what grants it access.
 *
 * @param regionId the region id, destroyed with {@link DriverEndpoint#destroyRegion}.
 * @param key      the non-zero key the driver drew for this declaration.
 */
public record RemoteRegion(int regionId, long key)
{
}
