package io.pinmx.apps.mg;

/**
 * NPB MG on one JVM, no transport: {@code java ... io.pinmx.apps.mg.MgSerial CLASS}. Exits 1 when the
 * verification fails, 2 on a bad argument.
 */
public final class MgSerial
{
    public static final String VERSION = "serial";

    private MgSerial()
    {
    }

    public static void main(final String[] args)
    {
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
