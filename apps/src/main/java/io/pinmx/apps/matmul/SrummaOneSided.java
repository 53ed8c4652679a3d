package io.pinmx.apps.matmul;

import io.pinmx.apps.EpochlessRmaOptions;
import io.pinmx.job.Job;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.Rma;

/**
 * SRUMMA over pinmx's one-sided layer ({@link Srumma}): {@code bin/pinmx-run -np N
 * io.pinmx.apps.matmul.SrummaOneSided ORDER [CHUNK [AHEAD]]}, ORDER a multiple of N, CHUNK the shared dimension's
 * chunk width (0 or none: the blocks' common side, halved down to 256), AHEAD the chunks fetched ahead. Rank 0
 * prints the report; exits 1 when the product is wrong, 2 on a bad argument or an order the ranks cannot share (a
 * one-line error). SRUMMA opens no access epochs and says so at init ({@link EpochlessRmaOptions}).
 */
public final class SrummaOneSided
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.apps.matmul.SrummaOneSided ORDER [CHUNK [AHEAD]]
          SRUMMA: C = A x B on a 2-D block grid, remote blocks fetched by non-blocking strided gets overlapped with
          the multiply, checked against a closed form. CHUNK: the shared dimension's chunk width (0: the default);
          AHEAD: how many chunks are fetched ahead of the one multiplied (default 1, double buffering). Opens no
          access epochs and announces none unless PINMX_RMA_ACCESS_EPOCHS is set.
          exit status: 0 checked, 1 a wrong product or a rank failed, 2 a bad argument
        """;
    static final String ALGORITHM = "SRUMMA";

    private SrummaOneSided()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        final MatmulRun run;
        try (Job job = Job.join(System.getenv()))
        {
            final BlockGrid grid = MatmulArguments.grid(ALGORITHM, "ORDER [CHUNK [AHEAD]]", 3, args, job.size());
            final int ahead = MatmulArguments.chunksAhead(ALGORITHM, args, Srumma.DEFAULT_CHUNKS_AHEAD);
            try (Rma rma = Rma.init(job, EpochlessRmaOptions.fromEnvironment(System.getenv()));
                Srumma srumma = new Srumma(rma, grid, ahead))
            {
                if (0 == rma.rank())
                {
                    MatmulRun.header(System.out, ALGORITHM, grid, Srumma.VERSION);
                }
                run = srumma.run();
                final double[] phases = srumma.communicationPhases();
                if (0 == rma.rank())
                {
                    run.print(System.out, ALGORITHM);
                    run.communicationPhases(System.out, phases);
                }
            }
        }
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
