package io.pinmx.rma;

import java.util.Locale;

/**
 * How many rounds the cost model's measurement at a first {@link Rma#init} takes (option
 * {@code PINMX_RMA_CALIBRATION}).
 */
public enum CalibrationEffort
{
    /**
     * The default: small transfers until the JIT has compiled their paths at both ends, 200 rounds of every kind,
     * then each probe's fastest of 9 rounds (seconds a rank on a 2-CPU host).
     */
    FULL(3000, 200, 9, 10),
    /**
     * A tenth of the small transfers, 2 warm-up rounds of each kind and 3 timed rounds, for machines where every round
     * trip is slow (an emulated guest: under qemu's TCG a full measurement took 1-3 minutes a rank): a noisier model;
     * its file says so, and later quick jobs use it while a full job does not (it measures a full one and replaces it).
     */
    QUICK(300, 2, 3, 3);

    final int smallWarmUpRounds;
    final int warmUpRounds;
    final int timedRounds;
    /** What a rank's measurement takes on an idle 2-CPU host, for the line said before it starts. */
    final int typicalSecondsPerRank;

    CalibrationEffort(final int smallWarmUpRounds, final int warmUpRounds, final int timedRounds,
        final int typicalSecondsPerRank)
    {
        this.smallWarmUpRounds = smallWarmUpRounds;
        this.warmUpRounds = warmUpRounds;
        this.timedRounds = timedRounds;
        this.typicalSecondsPerRank = typicalSecondsPerRank;
    }

    /** @return the word that names it in {@code PINMX_RMA_CALIBRATION}, in the model file and on stderr. */
    String word()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return true if a model measured with this effort serves a job that asks for {@code asked}. */
    boolean serves(final CalibrationEffort asked)
    {
        return timedRounds >= asked.timedRounds;
    }

    /**
     * @throws IllegalArgumentException naming the variable and word if it is not full or quick.
     */
    static CalibrationEffort parse(final String variable, final String word)
    {
        for (final CalibrationEffort effort : values())
        {
            if (effort.word().equals(word))
            {
                return effort;
            }
        }
        throw new IllegalArgumentException(variable + "=" + word + ": expected full or quick");
    }
}
