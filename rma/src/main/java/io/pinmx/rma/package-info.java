/**
 * ARMCI-style one-sided communication over pinmx: {@link io.pinmx.rma.Rma} is the facade (allocation, put, get,
 * accumulate, read-modify-write, mutexes, fences, message helpers); {@link io.pinmx.rma.StridedPatch},
 * {@link io.pinmx.rma.Accumulator} and {@link io.pinmx.rma.LockStripes} are shared by every transfer path;
 * {@code Ranks}, {@code Allocator} and {@code SharedMemoryTier} own rank discovery, the shared files and the
 * same-host operations. Calls the JDK and {@code io.pinmx.job}.
 */
package io.pinmx.rma;
