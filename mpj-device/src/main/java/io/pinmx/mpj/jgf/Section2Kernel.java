package io.pinmx.mpj.jgf;

import mpi.Intracomm;

/**
 * One kernel of section 2: builds its data, runs the timed part on every rank of the communicator and validates
 * the result on rank 0.
 */
interface Section2Kernel
{
    /** The suite's name: Crypt, LUFact, SOR, Series, SparseMatmult. */
    String name();

    /**
     * Called by every rank.
     *
     * @return the result on rank 0; on the other ranks, null.
     */
    Section2Result run(Intracomm comm, JgfSize size);
}
