package io.pinmx.pin.spi;

import java.util.Set;

/**
 * What a provider is and what it allows.
 *
 * @param providerName           short name, e.g. "user" or "kernel".
 * @param chosenBecause          why this provider runs here (forced by a property, module absent...).
 * @param pinsMemory             true when the provider pins the pages of declared regions.
 * @param maxSegments            most segments per region ({@link #MAX_SEGMENTS}).
 * @param maxRegionsPerEndpoint  most regions declared at once per endpoint.
 * @param maxEndpointsPerBoard   most endpoints per board.
 * @param mediumFragPayloadBytes payload bytes of a full MEDIUM_FRAG frame on this link.
 * @param pullReplyPayloadBytes  payload bytes of a full PULL_REPLY frame on this link.
 * @param features               what the provider can do.
 */
public record DriverInfo(
    String providerName,
    String chosenBecause,
    boolean pinsMemory,
    int maxSegments,
    int maxRegionsPerEndpoint,
    int maxEndpointsPerBoard,
    int mediumFragPayloadBytes,
    int pullReplyPayloadBytes,
    Set<DriverFeature> features)
{
    /** Most segments a region may have, for every provider. */
    public static final int MAX_SEGMENTS = 256;

    /**
     * @throws IllegalArgumentException naming a missing name or a limit out of range.
     */
    public DriverInfo
    {
        if (null == providerName || providerName.isBlank() || null == chosenBecause)
        {
            throw new IllegalArgumentException("driver info: provider name and reason are required");
        }
        if (maxSegments < 1 || maxSegments > MAX_SEGMENTS)
        {
            throw new IllegalArgumentException("driver info: max segments " + maxSegments + " not in 1.." + MAX_SEGMENTS);
        }
        if (maxRegionsPerEndpoint < 1 || maxEndpointsPerBoard < 1 ||
            maxEndpointsPerBoard > EndpointAddress.MAX_ENDPOINT_INDEX + 1)
        {
            throw new IllegalArgumentException("driver info: max regions " + maxRegionsPerEndpoint +
                " and max endpoints " + maxEndpointsPerBoard + " must be positive, endpoints at most " +
                (EndpointAddress.MAX_ENDPOINT_INDEX + 1));
        }
        if (mediumFragPayloadBytes < 1 || pullReplyPayloadBytes < 1)
        {
            throw new IllegalArgumentException("driver info: frame payload bytes must be positive, got medium " +
                mediumFragPayloadBytes + ", pull reply " + pullReplyPayloadBytes);
        }
        features = Set.copyOf(features);
    }

    /**
     * @param feature feature to test.
     * @return true when the provider has it.
     */
    public boolean has(final DriverFeature feature)
    {
        return features.contains(feature);
    }
}
