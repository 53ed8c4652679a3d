package io.pinmx.pin.spi;

/**
 * The read-modify-writes of {@link DriverEndpoint#startAtomic}, applied by the target's driver on naturally aligned
 * 4- or 8-byte integers of an exposed region and answered with the old value.
 */
public enum AtomicOp
{
    /** Add the operand to the word; the old value comes back. */
    FETCH_ADD,
    /** Store the operand; the old value comes back. */
    SWAP,
    /** Store the operand if the word equals the compare value; the old value comes back (the compare value if it stored). */
    COMPARE_AND_SWAP,
    /** Add each of a vector of values to the words from the offset on, each addition atomic; the answer is 0. */
    ACCUMULATE
}
