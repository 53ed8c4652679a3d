package io.pinmx.apps.matmul;

import io.pinmx.job.Job;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.Rma;

/**
 * SRUMMA over pinmx's one-sided layer ({@link Srumma}): {@code bin/pinmx-run -np N
 * io.pinmx.apps.matmul.SrummaOneSided ORDER [CHUNK]}, ORDER a multiple of N, CHUNK the shared dimension's chunk
 * width (default: the blocks' common side, halved down to 256). Rank 0 prints the report; exits 1 when the product
 * is wrong, 2 on a bad argument or an order the ranks cannot share (a one-line error).
 */
public final class SrummaOneSided
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.apps.matmul.SrummaOneSided ORDER [CHUNK]
          SRUMMA: C = A x B on a 2-D block grid, remote blocks fetched by non-blocking strided gets overlapped with
          the multiply, checked against a closed form.
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
            final BlockGrid grid = MatmulArguments.grid(ALGORITHM, args, job.size());
            try (Rma rma = Rma.init(job); Srumma srumma = new Srumma(rma, grid))
            {
                if (0 == rma.rank())
                {
                    MatmulRun.header(System.out, ALGORITHM, grid, Srumma.VERSION);
                }
                run = srumma.run();
                if (0 == rma.rank())
                {
                    run.print(System.out, ALGORITHM);
                }
            }
        }
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
