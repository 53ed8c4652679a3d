package io.pinmx.pin.spi;

/**
 * Access flags of a declared region: what remote pulls and local pull replies may do with it.
 */
public final class RegionAccess
{
    /** Peers may pull from the region. */
    public static final int READ = 1;
    /** Pull replies may be written into the region. */
    public static final int WRITE = 2;
    /** Both. */
    public static final int READ_WRITE = READ | WRITE;

    private RegionAccess()
    {
    }

    /**
     * @param accessFlags flags to check.
     * @return true when the flags are a non-empty combination of {@link #READ} and {@link #WRITE}.
     */
    public static boolean isValid(final int accessFlags)
    {
        return accessFlags != 0 && (accessFlags & ~READ_WRITE) == 0;
    }

    /**
     * @param accessFlags flags to name.
     * @return "READ", "WRITE", "READ|WRITE" or the invalid value in hex.
     */
    public static String describe(final int accessFlags)
    {
        return switch (accessFlags)
        {
            case READ -> "READ";
            case WRITE -> "WRITE";
            case READ_WRITE -> "READ|WRITE";
            default -> "invalid 0x" + Integer.toHexString(accessFlags);
        };
    }
}
