package io.pinmx.apps.matmul;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;

/**
 * SRUMMA over pinmx's one-sided layer ({@link Srumma}): {@code bin/pinmx-run -np N
 * io.pinmx.apps.matmul.SrummaOneSided ORDER [CHUNK]}, ORDER a multiple of N, CHUNK the shared dimension's chunk
 * width (default: the blocks' common side, halved down to 256). Rank 0 prints the report; exits 1 when the product
 * is wrong, 2 on a bad argument or an order the ranks cannot share (a one-line error).
 */
public final class SrummaOneSided
{
    static final String ALGORITHM = "SRUMMA";

    private SrummaOneSided()
    {
    }

    public static void main(final String[] args)
    {
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
