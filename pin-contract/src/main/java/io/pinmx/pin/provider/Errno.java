package io.pinmx.pin.provider;

/**
 * Linux errno values the kernel provider meets, and their names for error messages. x86-64 / generic numbering.
 */
public final class Errno
{
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EIO = 5;
    public static final int EINTR = 4;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOTTY = 25;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int EOVERFLOW = 75;
    public static final int EBADFD = 77;
    public static final int EMSGSIZE = 90;
    public static final int EPROTOTYPE = 91;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EADDRINUSE = 98;
    public static final int ENETDOWN = 100;
    public static final int ENOBUFS = 105;
    public static final int ENOTCONN = 107;
    public static final int ETIMEDOUT = 110;
    public static final int EALREADY = 114;

    private static final String[] NAMES = new String[128];

    static
    {
        NAMES[EPERM] = "EPERM";
        NAMES[ENOENT] = "ENOENT";
        NAMES[ESRCH] = "ESRCH";
        NAMES[EINTR] = "EINTR";
        NAMES[5] = "EIO";
        NAMES[6] = "ENXIO";
        NAMES[E2BIG] = "E2BIG";
        NAMES[EBADF] = "EBADF";
        NAMES[EAGAIN] = "EAGAIN";
        NAMES[ENOMEM] = "ENOMEM";
        NAMES[EACCES] = "EACCES";
        NAMES[EFAULT] = "EFAULT";
        NAMES[EBUSY] = "EBUSY";
        NAMES[17] = "EEXIST";
        NAMES[ENODEV] = "ENODEV";
        NAMES[EINVAL] = "EINVAL";
        NAMES[24] = "EMFILE";
        NAMES[ENOTTY] = "ENOTTY";
        NAMES[EFBIG] = "EFBIG";
        NAMES[ENOSPC] = "ENOSPC";
        NAMES[ERANGE] = "ERANGE";
        NAMES[ENOSYS] = "ENOSYS";
        NAMES[EOVERFLOW] = "EOVERFLOW";
        NAMES[EBADFD] = "EBADFD";
        NAMES[EMSGSIZE] = "EMSGSIZE";
        NAMES[EPROTOTYPE] = "EPROTOTYPE";
        NAMES[EPROTONOSUPPORT] = "EPROTONOSUPPORT";
        NAMES[EADDRINUSE] = "EADDRINUSE";
        NAMES[ENETDOWN] = "ENETDOWN";
        NAMES[ENOBUFS] = "ENOBUFS";
        NAMES[ENOTCONN] = "ENOTCONN";
        NAMES[ETIMEDOUT] = "ETIMEDOUT";
        NAMES[EALREADY] = "EALREADY";
    }

    private Errno()
    {
    }

    /**
     * @param errno a positive errno.
     * @return e.g. "EFAULT (Bad address)": the symbol and the C library's text.
     */
    public static String describe(final int errno)
    {
        final String symbol = errno > 0 && errno < NAMES.length && null != NAMES[errno] ? NAMES[errno] : "errno " + errno;
        return symbol + " (" + Libc.strerror(errno) + ")";
    }
}
