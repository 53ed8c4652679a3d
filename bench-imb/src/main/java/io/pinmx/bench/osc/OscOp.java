package io.pinmx.bench.osc;

/**
 * One timed operation of the latency programs, aimed at rank 1's slice by {@link Origin#perform}: what the C
 * baseline's {@code one()} does with ARMCI.
 */
enum OscOp
{
    /** Blocking put, then a fence to the target. */
    PUT,
    /** Blocking get. */
    GET,
    /** Blocking accumulate of doubles (scale 1), then a fence to the target. */
    ACC,
    FETCH_ADD,
    SWAP,
    /** Lock and unlock of the target's mutex 0. */
    LOCK
}
