package io.pinmx.rma;

/**
 * How a contiguous put, get or accumulate through the driver moves its bytes (option {@code PINMX_RMA_CONTIGUOUS}).
 */
public enum ContiguousProtocol
{
    /** Chosen per request by the measured cost model ({@link CostModel}). */
    AUTO,
    /** Straight from or into the caller's memory, declared on demand through the endpoint's region cache. */
    ZERO_COPY,
    /** Through this rank's two staging buffers (declared once and kept), in chunks that grow, copies overlapped. */
    STREAM;

    /**
     * @throws IllegalArgumentException naming the word if it is not auto, zerocopy or stream.
     */
    static ContiguousProtocol parse(final String variable, final String word)
    {
        return switch (word)
        {
            case "auto" -> AUTO;
            case "zerocopy" -> ZERO_COPY;
            case "stream" -> STREAM;
            default -> throw new IllegalArgumentException(variable + "=" + word + ": expected auto, zerocopy or stream");
        };
    }
}
