package io.pinmx.rma;

/**
 * How many requests through the driver took each protocol since {@link Rma#init} (the calibration's own excluded):
 * strided and vector ones {@code direct} or {@code pack}, contiguous ones {@code zeroCopy} or {@code stream}, and
 * small blocking contiguous gets the target's data server answered ({@code served}). A vector of more pieces than one
 * request describes counts once per request.
 */
public record ProtocolCounts(long direct, long pack, long zeroCopy, long stream, long served)
{
}
