package io.pinmx.apps.mg;

import io.pinmx.job.ProgramArguments;

/**
 * NPB MG on one JVM, no transport: {@code java ... io.pinmx.apps.mg.MgSerial CLASS}. Exits 1 when the
 * verification fails, 2 on a bad argument.
 */
public final class MgSerial
{
    private static final String USAGE = """
        usage: bin/pinmx-run io.pinmx.apps.mg.MgSerial CLASS
          NAS MG (NPB's V-cycle multigrid) on one process; CLASS is S, W or A.
          exit status: 0 verified, 1 verification failed, 2 a bad CLASS
        """;
    public static final String VERSION = "serial";

    private MgSerial()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        final MgClass cls = MgArguments.mgClass(args);
        MgReport.header(System.out, cls, 1, VERSION);
        final MgRun run = MgRun.of(cls, new SerialTransport());
        MgReport.print(System.out, run, VERSION);
        if (!run.verified())
        {
            System.exit(1);
        }
    }
}
