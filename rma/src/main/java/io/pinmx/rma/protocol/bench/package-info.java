/**
 * The driver tier's protocol sweep ({@link io.pinmx.rma.protocol.bench.ProtocolSweep}): each protocol forced against
 * the cost model's choice, in the same run. A program, started by bin/pinmx-run; calls {@code io.pinmx.rma} and
 * {@code io.pinmx.job} only.
 */
package io.pinmx.rma.protocol.bench;
