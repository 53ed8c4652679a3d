/**
 * ARMCI-style one-sided communication over pinmx. So far the parts every transfer path shares: the
 * validated shape of a strided transfer ({@link io.pinmx.rma.StridedPatch}) and element-wise atomic
 * accumulate ({@link io.pinmx.rma.Accumulator}, {@link io.pinmx.rma.AccumulateScale},
 * {@link io.pinmx.rma.LockStripes}). Calls nothing outside the JDK.
 */
package io.pinmx.rma;
