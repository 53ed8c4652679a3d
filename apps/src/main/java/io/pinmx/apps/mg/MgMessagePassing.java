package io.pinmx.apps.mg;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.MPI;

/**
 * NPB MG over MPJ Express ({@link MpjSlabTransport}), on pinmx's device ({@code bin/pinmx-run -np N --mpj
 * io.pinmx.apps.mg.MgMessagePassing CLASS}) or any other MPJ device (niodev: {@code io.pinmx.mpj.niodev.NiodevJob}).
 * Arguments after MPJ's own: the class. Rank 0 prints NPB's report; exits 1 when the verification fails, 2 on a bad
 * class or rank count (a one-line error).
 */
public final class MgMessagePassing
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.apps.mg.MgMessagePassing CLASS   (N a power of two)
          NAS MG over MPJ Express (Send/Recv of the same faces); CLASS is S, W or A.
          exit status: 0 verified, 1 verification failed or a rank failed, 2 a bad CLASS or rank count
        """;

    private MgMessagePassing()
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
        final MgClass cls = MgArguments.mgClass(own);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        try
        {
            new SlabLevels(cls, size, rank);
        }
        catch (final IllegalArgumentException ex)
        {
            MgArguments.refuse(ex);
        }
        if (0 == rank)
        {
            MgReport.header(System.out, cls, size, version);
        }
        final MgRun run = MgRun.of(cls, new MpjSlabTransport(MPI.COMM_WORLD));
        if (0 == rank)
        {
            MgReport.print(System.out, run, version);
        }
        MPI.Finalize();
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
