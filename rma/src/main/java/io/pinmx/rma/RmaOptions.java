package io.pinmx.rma;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * How the one-sided layer runs.
 *
 * @param sharedMemory ranks on one host map each other's slices (true, the default); false reaches every other rank
 *                     through the driver, to test and measure that path on one host.
 * @param directory    the tmpfs directory of the shared files (default /dev/shm).
 */
public record RmaOptions(boolean sharedMemory, Path directory)
{
    /** "0" switches the shared-memory tier off; "1" (or unset) leaves it on. */
    public static final String SHARED_MEMORY_VARIABLE = "PINMX_RMA_SHARED_MEMORY";
    /** Where the shared files go; default /dev/shm. */
    public static final String DIRECTORY_VARIABLE = "PINMX_RMA_DIR";

    /**
     * @throws IllegalArgumentException naming the directory if it is not a directory.
     */
    public RmaOptions
    {
        if (null == directory || !Files.isDirectory(directory))
        {
            throw new IllegalArgumentException("rma shared-file directory " + directory + " is not a directory");
        }
    }

    /**
     * @throws IllegalArgumentException naming the variable whose value is not valid.
     */
    public static RmaOptions fromEnvironment(final Map<String, String> env)
    {
        final String shm = env.getOrDefault(SHARED_MEMORY_VARIABLE, "1");
        if (!"0".equals(shm) && !"1".equals(shm))
        {
            throw new IllegalArgumentException(SHARED_MEMORY_VARIABLE + "=" + shm + ": expected 0 or 1");
        }
        return new RmaOptions("1".equals(shm), Path.of(env.getOrDefault(DIRECTORY_VARIABLE, "/dev/shm")));
    }
}
