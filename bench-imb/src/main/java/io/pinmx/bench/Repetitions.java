package io.pinmx.bench;

/**
 * IMB's repetition rule (IMB-MPI1 settings: MSGSPERSAMPLE 1000, OVERALL_VOL 40*1048576): a size of
 * {@code bytes > 0} runs {@code max(1, min(perSample, overallVolumeBytes / bytes))} repetitions, size 0 runs
 * {@code perSample}. So 1000 repetitions up to 32 KiB, then 640 at 64 KiB halving to 10 at 4 MiB.
 * IMB's {@code -iter n[,vol]} sets perSample and, optionally, the overall volume in MB (2^20 bytes).
 */
public record Repetitions(int perSample, long overallVolumeBytes)
{
    public static final int IMB_MSGS_PER_SAMPLE = 1000;
    public static final long IMB_OVERALL_VOLUME_BYTES = 40L * 1048576;
    public static final Repetitions IMB_DEFAULT = new Repetitions(IMB_MSGS_PER_SAMPLE, IMB_OVERALL_VOLUME_BYTES);

    public Repetitions
    {
        if (perSample < 1)
        {
            throw new IllegalArgumentException("-iter: repetitions per sample must be at least 1, got " + perSample);
        }
        if (overallVolumeBytes < 1)
        {
            throw new IllegalArgumentException("-iter: overall volume must be at least 1 MB, got " + overallVolumeBytes + " B");
        }
    }

    /**
     * Parses IMB's {@code -iter} value: {@code n} or {@code n,volumeMB}.
     */
    public static Repetitions parseIter(final String value)
    {
        final String[] parts = value.split(",", -1);
        if (parts.length > 2)
        {
            throw new IllegalArgumentException("-iter " + value + ": expected n or n,volumeMB");
        }
        final int perSample = parseInt("-iter", value, parts[0]);
        final long volume = 2 == parts.length ? parseInt("-iter", value, parts[1]) * 1048576L : IMB_OVERALL_VOLUME_BYTES;
        return new Repetitions(perSample, volume);
    }

    public int forSize(final long bytes)
    {
        if (0 == bytes)
        {
            return perSample;
        }
        return (int)Math.max(1, Math.min(perSample, overallVolumeBytes / bytes));
    }

    static int parseInt(final String option, final String whole, final String part)
    {
        try
        {
            return Integer.parseInt(part.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " " + whole + ": '" + part + "' is not an integer");
        }
    }
}
