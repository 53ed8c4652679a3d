package io.pinmx.apps.mg;

/**
 * One NPB MG benchmark on every rank of a transport: NPB's untimed set-up and one untimed V-cycle, a fresh start,
 * then the timed part (the residual, {@link MgClass#iterations()} V-cycles each followed by the residual, and its
 * norm). The time is the slowest rank's.
 *
 * @param norm         the final residual's L2 norm.
 * @param seconds      the timed part, slowest rank.
 * @param transportSeconds the timed part's time in the transport (ghost planes, gathers, reductions), slowest rank.
 */
record MgRun(MgClass cls, int ranks, double norm, double seconds, double transportSeconds)
{
    static MgRun of(final MgClass cls, final SlabTransport transport)
    {
        final Multigrid mg = new Multigrid(cls, transport);
        mg.reset();
        mg.residual();
        mg.vCycle();
        mg.residual();
        mg.reset();
        transport.barrier();
        mg.clearTransportTime();
        transport.startTimedPart();
        final long start = System.nanoTime();
        mg.residual();
        for (int i = 0; i < cls.iterations(); i++)
        {
            mg.vCycle();
            mg.residual();
        }
        final double norm = mg.residualNorm();
        final double seconds = (System.nanoTime() - start) / 1e9;
        final double transportSeconds = mg.transportNs() / 1e9;
        return new MgRun(cls, transport.size(), norm, transport.max(seconds), transport.max(transportSeconds));
    }

    boolean verified()
    {
        return cls.verifies(norm);
    }

    /** NPB's operation count: 58 floating-point operations per point per iteration. */
    double mops()
    {
        final double points = cls.points();
        return 58.0 * cls.iterations() * points * points * points / seconds / 1e6;
    }
}
