package io.pinmx.rma;

/**
 * How a strided or vector operation through the driver moves its pieces (option {@code PINMX_RMA_STRIDED}).
 */
public enum StridedProtocol
{
    /** Chosen per request by the measured cost model ({@link CostModel}). */
    AUTO,
    /** The drivers move every contiguous piece themselves, from a piece list on each side. */
    DIRECT,
    /** Packed into a contiguous staging buffer, moved in chunks, unpacked at the other end; pipelined. */
    PACK;

    /**
     * @throws IllegalArgumentException naming the word if it is not auto, direct or pack.
     */
    static StridedProtocol parse(final String variable, final String word)
    {
        return switch (word)
        {
            case "auto" -> AUTO;
            case "direct" -> DIRECT;
            case "pack" -> PACK;
            default -> throw new IllegalArgumentException(variable + "=" + word + ": expected auto, direct or pack");
        };
    }
}
