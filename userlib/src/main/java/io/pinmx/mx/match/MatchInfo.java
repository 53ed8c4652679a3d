package io.pinmx.mx.match;

/**
 * The 64-bit match info rules: a receive posted with {@code (matchInfo, matchMask)} accepts a
 * message whose match info agrees with it on every bit set in the mask.
 */
public final class MatchInfo
{
    /** Mask accepting every message. */
    public static final long MASK_ANY = 0L;
    /** Mask requiring every bit to agree. */
    public static final long MASK_ALL = -1L;
    /** Source value of a receive that accepts any partner. */
    public static final int ANY_SOURCE = -1;

    private MatchInfo()
    {
    }

    public static boolean matches(final long postedMatchInfo, final long postedMatchMask, final long messageMatchInfo)
    {
        return ((postedMatchInfo ^ messageMatchInfo) & postedMatchMask) == 0;
    }

    public static boolean sourceMatches(final int postedSource, final int messageSource)
    {
        return ANY_SOURCE == postedSource || postedSource == messageSource;
    }

    /**
     * Bits set outside the mask can never take part in matching; as in MX they are refused
     * rather than silently ignored because they almost always are a caller's mistake.
     *
     * @throws IllegalArgumentException naming both values when bits are set outside the mask.
     */
    public static void validate(final long matchInfo, final long matchMask)
    {
        if ((matchInfo & ~matchMask) != 0)
        {
            throw new IllegalArgumentException(
                "match info 0x" + Long.toHexString(matchInfo) + " has bits outside match mask 0x" +
                Long.toHexString(matchMask) + " (bits 0x" + Long.toHexString(matchInfo & ~matchMask) + ")");
        }
    }

    public static String format(final long matchInfo)
    {
        return "0x" + Long.toHexString(matchInfo);
    }
}
