package io.pinmx.rma;

/**
 * The protocols of this rank's requests through the driver ({@link Rma#protocols()}): how many took each, the cost
 * model that chooses them, and forcing one instead (AUTO: the model's choice). Strided and vector requests go DIRECT
 * or PACK, contiguous ones ZERO_COPY or STREAM, and strided or vector puts to a passive target to its driver or its
 * data server ({@code docs/protocols.md}). Used by the thread that issues operations.
 */
public final class RmaProtocols
{
    private final RmaLayers layers;

    RmaProtocols(final RmaLayers layers)
    {
        this.layers = layers;
    }

    /**
     * @return how many requests through the driver took each protocol (strided and vector: direct or pack;
     *         contiguous: zero-copy or stream) since init; all 0 when no rank is reached through the driver.
     */
    public ProtocolCounts counts()
    {
        return layers.protocols.counts();
    }

    /**
     * Forces this rank's protocols for the operations that follow through the driver (AUTO: the cost model's
     * choice); the same as {@link RmaOptions#strided()} and {@link RmaOptions#contiguous()} at init.
     *
     * @throws IllegalArgumentException if either is null.
     */
    public void force(final StridedProtocol strided, final ContiguousProtocol contiguous)
    {
        layers.protocols.force(strided, contiguous);
    }

    /**
     * Forces where this rank's strided and vector puts to passive targets go from now on (AUTO: the cost model's
     * choice); the same as {@link RmaOptions#passivePuts()} at init.
     *
     * @throws IllegalArgumentException if it is null.
     */
    public void forcePassivePuts(final PassivePuts where)
    {
        layers.protocols.forcePassivePuts(where);
    }

    /** @return the cost model that chooses this rank's protocols, or null when no rank is reached through the driver. */
    public CostModel costModel()
    {
        return layers.protocols.model();
    }

    /** @return requests this rank's data server has served (0 without one): what its CPU did for others. */
    long dataServerRequests()
    {
        return layers.dataServerRequests();
    }

    /** @return of the packed gets this rank's data server answered: packed, sent in chunks, pack-area bytes held. */
    long[] dataServerPackedGets()
    {
        return layers.dataServerPackedGets();
    }
}
