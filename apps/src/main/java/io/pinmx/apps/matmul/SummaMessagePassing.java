package io.pinmx.apps.matmul;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.MPI;

/**
 * SUMMA over MPJ Express ({@link Summa}), on pinmx's device ({@code bin/pinmx-run -np N --mpj
 * io.pinmx.apps.matmul.SummaMessagePassing ORDER [CHUNK]}) or any other MPJ device (niodev:
 * {@code io.pinmx.mpj.niodev.NiodevJob}). Arguments after MPJ's own: the order, a multiple of N, and optionally the
 * chunk width. Rank 0 prints the report; exits 1 when the product is wrong, 2 on a bad argument or an order the
 * ranks cannot share (a one-line error).
 */
public final class SummaMessagePassing
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.apps.matmul.SummaMessagePassing ORDER [CHUNK]
          SUMMA over MPJ Express (row and column broadcasts), checked against a closed form.
          exit status: 0 checked, 1 a wrong product or a rank failed, 2 a bad argument
        """;
    static final String ALGORITHM = "SUMMA";

    private SummaMessagePassing()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String version = "MPJ " + (args.length > 2 ? args[2] : "?");
        final String[] own = MPI.Init(args);
        final BlockGrid grid = MatmulArguments.grid(ALGORITHM, own, MPI.COMM_WORLD.Size());
        final boolean root = 0 == MPI.COMM_WORLD.Rank();
        if (root)
        {
            MatmulRun.header(System.out, ALGORITHM, grid, version);
        }
        final MatmulRun run = new Summa(MPI.COMM_WORLD, grid).run(version);
        if (root)
        {
            run.print(System.out, ALGORITHM);
        }
        MPI.Finalize();
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
