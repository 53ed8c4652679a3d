package io.pinmx.apps.matmul;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One timed distributed product and its report. Times are the slowest rank's.
 *
 * @param seconds         the timed product: every chunk fetched or broadcast and multiplied.
 * @param transferSeconds the chunks' communication on its own: SRUMMA's pass of blocking gets without computing,
 *                        SUMMA's broadcasts within the product.
 * @param computeSeconds  the product's computing on its own: SRUMMA's pass of unpacking and multiplying without a
 *                        communication call, SUMMA's time outside its broadcasts.
 * @param waitSeconds     the product's time in communication calls (SRUMMA: issuing, testing and waiting for gets,
 *                        progress calls; SUMMA: its broadcasts). Time the communication takes from the computing
 *                        outside those calls (a progress thread on the same CPU, caches) is not in it.
 * @param unhiddenSeconds the communication the product did not hide: SRUMMA's product time beyond its thread's CPU
 *                        time in unpacking and multiplying (calls, and other threads on its CPU while it multiplied);
 *                        SUMMA's broadcasts, which nothing overlaps.
 * @param maxError        the largest difference from the closed-form product, relative to the bound on |C|.
 */
public record MatmulRun(BlockGrid grid, String version, double seconds, double transferSeconds,
    double computeSeconds, double waitSeconds, double unhiddenSeconds, double maxError)
{
    /** Each element sums order products: far below this relative to the bound on |C| unless a chunk is wrong. */
    static final double TOLERANCE = 1.0e-12;

    public boolean verified()
    {
        return maxError <= TOLERANCE;
    }

    /**
     * The communication that overlapped computing over all of it: 1 - unhidden / transfer, within 0 and 1; NaN on one
     * rank, which transfers nothing.
     */
    public double hiddenFraction()
    {
        return grid.ranks() > 1 && transferSeconds > 0 ?
            Math.clamp(1.0 - unhiddenSeconds / transferSeconds, 0.0, 1.0) : Double.NaN;
    }

    public double gflops()
    {
        final double n = grid.order();
        return 2.0 * n * n * n / seconds / 1e9;
    }

    static void header(final PrintStream out, final String algorithm, final BlockGrid grid, final String version)
    {
        out.printf(Locale.ROOT, "%n%n Dense matrix multiplication (pinmx, Java) -- %s%n%n", algorithm);
        out.printf(Locale.ROOT, " Order: %d  grid %dx%d  chunk %d%n", grid.order(), grid.rows(), grid.cols(),
            grid.chunk());
        out.printf(Locale.ROOT, " Number of processes: %d%n", grid.ranks());
        out.printf(Locale.ROOT, " Version: %s%n", version);
        out.flush();
    }

    void print(final PrintStream out, final String algorithm)
    {
        out.printf(Locale.ROOT, "%n %s Benchmark Completed.%n", algorithm);
        line(out, "Order", Integer.toString(grid.order()));
        line(out, "Grid", grid.rows() + "x" + grid.cols());
        line(out, "Chunk", Integer.toString(grid.chunk()));
        line(out, "Time in seconds", String.format(Locale.ROOT, "%.4f", seconds));
        line(out, "Gflop/s total", String.format(Locale.ROOT, "%.3f", gflops()));
        line(out, "Transfer secs", String.format(Locale.ROOT, "%.4f", transferSeconds));
        line(out, "Compute secs", String.format(Locale.ROOT, "%.4f", computeSeconds));
        line(out, "Wait secs", String.format(Locale.ROOT, "%.4f", waitSeconds));
        line(out, "Unhidden secs", String.format(Locale.ROOT, "%.4f", unhiddenSeconds));
        line(out, "Hidden fraction",
            Double.isNaN(hiddenFraction()) ? "-" : String.format(Locale.ROOT, "%.3f", hiddenFraction()));
        line(out, "Total processes", Integer.toString(grid.ranks()));
        line(out, "Version", version);
        line(out, "Max rel. error", String.format(Locale.ROOT, "%.3e", maxError));
        line(out, "Verification", verified() ? "SUCCESSFUL" : "UNSUCCESSFUL");
        out.flush();
    }

    /**
     * SRUMMA's wait by kind: seconds issuing, testing and waiting for gets, tests, seconds in progress calls; then the
     * median product minus its round's compute-only pass, the hidden fraction that gives against the transfer, and the
     * median CPU time of the rank's pinmx threads during the product (part of the unhidden time when they share its
     * CPU; the rest is calls, the JIT, the GC and other processes).
     */
    void communicationPhases(final PrintStream out, final double[] phases)
    {
        line(out, "Get issue secs", String.format(Locale.ROOT, "%.4f", phases[0]));
        line(out, "Get test secs", String.format(Locale.ROOT, "%.4f", phases[1]));
        line(out, "Get await secs", String.format(Locale.ROOT, "%.4f", phases[2]));
        line(out, "Get tests", String.format(Locale.ROOT, "%.0f", phases[3]));
        line(out, "Progress secs", String.format(Locale.ROOT, "%.4f", phases[4]));
        line(out, "Product-compute", String.format(Locale.ROOT, "%.4f", phases[5]));
        line(out, "Hidden vs pass", grid.ranks() > 1 && transferSeconds > 0 ?
            String.format(Locale.ROOT, "%.3f", Math.clamp(1.0 - phases[5] / transferSeconds, 0.0, 1.0)) : "-");
        line(out, "Comm thread secs", String.format(Locale.ROOT, "%.4f", phases[6]));
        out.flush();
    }

    private static void line(final PrintStream out, final String name, final String value)
    {
        out.printf(Locale.ROOT, " %-16s=%25s%n", name, value);
    }
}
