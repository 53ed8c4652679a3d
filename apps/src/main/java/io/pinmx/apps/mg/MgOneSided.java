package io.pinmx.apps.mg;

import io.pinmx.apps.EpochlessRmaOptions;
import io.pinmx.job.Job;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.Rma;

/**
 * NPB MG over pinmx's one-sided layer ({@link RmaSlabTransport}): {@code bin/pinmx-run -np N
 * io.pinmx.apps.mg.MgOneSided CLASS [put|get]}, N a power of two of at most half the class's points ({@link
 * GhostMotion}: get by default). Rank 0 prints NPB's report; exits 1 when the verification fails, 2 on a bad class,
 * motion or rank count (a one-line error). MG opens no access epochs and says so at init ({@link
 * EpochlessRmaOptions}).
 */
public final class MgOneSided
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.apps.mg.MgOneSided CLASS [put|get]   (N a power of two)
          NAS MG over pinmx's one-sided layer; CLASS is S, W or A. Ghost planes move by gets from the neighbours'
          slots after their notification (get, the default) or by puts into them and a notification that lands
          after them (put).
          Reads the job's and rma's PINMX_* variables (bin/pinmx-run --help, docs/environment.md); opens no access
          epochs and announces none unless PINMX_RMA_ACCESS_EPOCHS is set.
          exit status: 0 verified, 1 verification failed or a rank failed, 2 a bad CLASS or rank count
        """;
    public static final String VERSION = "one-sided rma";

    private MgOneSided()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        final MgClass cls = MgArguments.mgClass(args, 2);
        final GhostMotion motion = MgArguments.ghostMotion(args);
        final String version = VERSION + " (" + motion.word() + "s)";
        final MgRun run;
        try (Job job = Job.join(System.getenv()))
        {
            try
            {
                new SlabLevels(cls, job.size(), job.rank());
            }
            catch (final IllegalArgumentException ex)
            {
                MgArguments.refuse(ex);
            }
            try (Rma rma = Rma.init(job, EpochlessRmaOptions.fromEnvironment(System.getenv()));
                RmaSlabTransport transport = new RmaSlabTransport(rma, cls, motion))
            {
                if (0 == rma.rank())
                {
                    MgReport.header(System.out, cls, rma.size(), version);
                }
                run = MgRun.of(cls, transport);
                final double[] phases = transport.exchangePhaseSeconds();
                final double[] levels = transport.levelSeconds();
                if (0 == rma.rank())
                {
                    MgReport.print(System.out, run, version);
                    MgReport.exchangePhases(System.out, motion, phases);
                    MgReport.levelPhases(System.out, motion, levels);
                }
            }
        }
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
