package io.pinmx.rma;

/**
 * How many rounds the cost model's measurement at a first {@link Rma#init} takes (option
 * {@code PINMX_RMA_CALIBRATION}).
 */
public enum CalibrationEffort
{
    /**
     * The default: small transfers until the JIT has compiled their paths at both ends, then each probe's fastest of
     * 9 rounds (1-5 s a rank on a 2-CPU host).
     */
    FULL(3000, 20, 9),
    /**
     * A tenth of the warm-up and 3 rounds, for machines where every round trip is slow (an emulated guest: under
     * qemu's TCG a full measurement took 1-3 minutes a rank): a noisier model, which later jobs read from its file as
     * any other ({@code PINMX_RMA_RECALIBRATE=1} measures it again).
     */
    QUICK(300, 2, 3);

    final int smallWarmUpRounds;
    final int warmUpRounds;
    final int timedRounds;

    CalibrationEffort(final int smallWarmUpRounds, final int warmUpRounds, final int timedRounds)
    {
        this.smallWarmUpRounds = smallWarmUpRounds;
        this.warmUpRounds = warmUpRounds;
        this.timedRounds = timedRounds;
    }

    /**
     * @throws IllegalArgumentException naming the variable and word if it is not full or quick.
     */
    static CalibrationEffort parse(final String variable, final String word)
    {
        return switch (word)
        {
            case "full" -> FULL;
            case "quick" -> QUICK;
            default -> throw new IllegalArgumentException(variable + "=" + word + ": expected full or quick");
        };
    }
}
