/**
 * The Java Grande Forum MPJ benchmarks, written for this project from the suite's published description: section 1
 * ({@link io.pinmx.mpj.jgf.JgfSection1}: PingPong, Barrier, Bcast, Alltoall, Gather, Scatter and Reduce, timed by the
 * suite's doubling rule with the barrier's cost subtracted) and section 2 ({@link io.pinmx.mpj.jgf.JgfSection2}:
 * Crypt, LUFact, SOR, Series and SparseMatmult at sizes A and B, each validated against the suite's rule and, where
 * the suite publishes one, its reference value). MPJ programs over {@code mpi.*} only, so they run on any MPJ
 * device: {@code mpj-device/bench/run.sh jgf} runs them on niodev and on pinmx in one run.
 * <p>
 * May call MPJ Express's {@code mpi} API and the JDK. Nothing calls it.
 */
package io.pinmx.mpj.jgf;
