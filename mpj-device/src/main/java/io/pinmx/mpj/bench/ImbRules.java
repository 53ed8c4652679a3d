package io.pinmx.mpj.bench;

import io.pinmx.job.JitQuiet;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The IMB rules the MPJ benchmark programs share: the size range of {@code -msglog a:b}, repetitions per size (1000,
 * or fewer so that one size moves at most 40 MiB), IMB's 2 untimed repetitions before each timed loop, and this
 * project's untimed passes over every size before the table, until the JIT is quiet on every rank.
 */
final class ImbRules
{
    /** Repetitions per size in an untimed pass, at most. */
    static final int WARM_UP_REPETITIONS = 200;
    /** IMB's untimed repetitions before each timed loop. */
    static final int IMB_WARM_UP = 2;
    private static final int MSGS_PER_SAMPLE = 1000;
    private static final long OVERALL_VOLUME_BYTES = 40L * 1048576;

    private ImbRules()
    {
    }

    /**
     * Untimed passes over every size ({@code pass}) until the JIT compiler threads of every rank are quiet
     * ({@link JitQuiet}, the ranks voting by a bitwise-or Allreduce), so that no path is compiled while a size is
     * timed: a rendezvous path meets C2's counts only after thousands of messages. Every rank calls it.
     */
    static JitQuiet.Outcome warmUp(final Intracomm comm, final Runnable pass)
    {
        final long startNs = System.nanoTime();
        pass.run();
        final int[] mine = new int[1];
        final int[] all = new int[1];
        return JitQuiet.untilQuiet(votes ->
        {
            mine[0] = votes;
            comm.Allreduce(mine, 0, all, 0, 1, MPI.INT, MPI.BOR);
            return all[0];
        }, startNs, pass);
    }

    /** IMB's rule: 1000, or fewer so that one size moves at most 40 MiB. */
    static int repetitions(final int bytes)
    {
        return 0 == bytes ? MSGS_PER_SAMPLE : (int)Math.max(1, Math.min(MSGS_PER_SAMPLE, OVERALL_VOLUME_BYTES / bytes));
    }

    /**
     * @param lowest the smallest log the program can use (Allreduce: 2, one int).
     * @return {a, b} of {@code -msglog a:b} in the program's own arguments, or {lowest, 22} without them.
     * @throws IllegalArgumentException naming the program and the bad argument.
     */
    static int[] msglog(final String[] own, final String program, final int lowest)
    {
        if (0 == own.length)
        {
            return new int[]{lowest, 22};
        }
        final String usage = "-msglog " + (2 == own.length ? own[1] : "") + ": expected a:b with " + lowest +
            " <= a <= b <= 30";
        if (2 != own.length || !"-msglog".equals(own[0]))
        {
            throw new IllegalArgumentException("usage: " + program + " [-msglog a:b], got " + String.join(" ", own));
        }
        final String[] ab = own[1].split(":", -1);
        try
        {
            final int a = 2 == ab.length ? Integer.parseInt(ab[0]) : lowest;
            final int b = Integer.parseInt(ab[ab.length - 1]);
            if (ab.length > 2 || a < lowest || b < a || b > 30)
            {
                throw new IllegalArgumentException(usage);
            }
            return new int[]{a, b};
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(usage);
        }
    }
}
