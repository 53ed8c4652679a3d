package io.pinmx.bench;

import io.pinmx.job.Job;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The shape IMB gives every benchmark: warm-up, barrier, a timed loop of repetitions on the ranks taking
 * part, the per-repetition times gathered to rank 0, and throughput from the slowest rank's time. The timed loop
 * runs {@link BenchOptions#loops()} times, each after a barrier, and the loop whose slowest rank has the median
 * time is the one reported, so that one stall of a rank on a shared host (a millisecond of descheduling spread
 * over a loop of microsecond exchanges) does not decide the row; the repetitions per loop are IMB's.
 */
abstract class ImbBenchmark extends FixedBenchmark
{
    private static final double NANOS_PER_USEC = 1000.0;

    /**
     * Which of the job's ranks take part in the timed loop; the others wait at the barriers.
     */
    enum Participants
    {
        /** Ranks 0 and 1. */
        TWO,
        /** Every rank of the job. */
        ALL
    }

    /**
     * The fixed facts of one IMB benchmark.
     *
     * @param name               the benchmark's name, as IMB and bin/pinmx-run spell it.
     * @param minRanks           the fewest ranks the job may have.
     * @param layout             the table it prints.
     * @param participants       which ranks take part.
     * @param timesPerRepetition timed messages per repetition: 2 for a round trip reported as half of it, else 1.
     * @param throughputFactor   bytes counted per repetition and per {@code bytes} of message size, as IMB counts them.
     */
    record Facts(
        String name, int minRanks, TableLayout layout, Participants participants, int timesPerRepetition,
        int throughputFactor)
    {
    }

    private final Facts facts;

    ImbBenchmark(final Facts facts)
    {
        super(facts.name(), facts.minRanks(), facts.layout());
        this.facts = facts;
    }

    /**
     * @return how many of the job's ranks take part (the others wait at the barriers).
     */
    final int participants(final Job job)
    {
        return Participants.ALL == facts.participants() ? job.size() : 2;
    }

    /**
     * @return timed messages per repetition: 2 for a round trip reported as half of it, else 1.
     */
    final int timesPerRepetition()
    {
        return facts.timesPerRepetition();
    }

    /**
     * @return bytes counted per repetition and per {@code bytes} of message size, as IMB counts them.
     */
    final int throughputFactor()
    {
        return facts.throughputFactor();
    }

    abstract void loop(Transport transport, Job job, MessageBuffers buffers, int bytes, int repetitions);

    @Override
    public void warmUp(
        final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        if (job.rank() < participants(job))
        {
            loop(transport, job, buffers, bytes, repetitions);
        }
        job.barrier();
    }

    @Override
    public int repetitions(final BenchOptions options, final int bytes)
    {
        return options.repetitions().forSize(bytes);
    }

    @Override
    public Measurement measure(
        final Transport transport, final Job job, final MessageBuffers buffers, final BenchOptions options, final int bytes)
    {
        final int repetitions = repetitions(options, bytes);
        final int participants = participants(job);
        final boolean active = job.rank() < participants;
        if (active)
        {
            loop(transport, job, buffers, bytes, WARMUP_ITERATIONS);
        }
        final double[][] loopSpreads = new double[options.loops()][];
        for (int l = 0; l < loopSpreads.length; l++)
        {
            job.barrier();
            final long startNs = System.nanoTime();
            if (active)
            {
                loop(transport, job, buffers, bytes, repetitions);
            }
            final long elapsedNs = System.nanoTime() - startNs;
            final double[] all = job.gather(elapsedNs / NANOS_PER_USEC / repetitions / timesPerRepetition());
            loopSpreads[l] = 0 == job.rank() ? Benchmark.spread(all, participants) : null;
        }
        if (0 != job.rank())
        {
            return null;
        }
        final double[] s = medianBySlowestRank(loopSpreads);
        final double mbytesPerSec = (double)throughputFactor() * bytes / s[1];
        return new Measurement(bytes, repetitions, s[0], s[1], s[2], mbytesPerSec);
    }

    /**
     * @param spreads min, max and average over ranks of each loop.
     * @return the spread of the loop whose max (the slowest rank's time) is the median; the lower median for an
     * even count.
     */
    static double[] medianBySlowestRank(final double[][] spreads)
    {
        final double[][] sorted = spreads.clone();
        Arrays.sort(sorted, Comparator.comparingDouble(spread -> spread[1]));
        return sorted[(sorted.length - 1) / 2];
    }
}
