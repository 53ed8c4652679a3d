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
 * @param strided      the protocol of strided and vector operations through the driver (default AUTO: the model's).
 * @param contiguous   the protocol of contiguous operations through the driver (default AUTO: the model's).
 * @param modelFile    where the measured cost model is cached, or null for
 *                     {@code pinmx/rma-model-PROVIDER-HOST-INTERFACE-inlineBYTES.properties} under
 *                     $XDG_CACHE_HOME or $HOME/.cache.
 * @param recalibrate  measure the cost model again at {@link Rma#init} even if its file is there (and rewrite it).
 * @param calibration  how many rounds that measurement takes (default FULL).
 * @param driverWrites whether this rank's slices take puts, integer accumulates and read-modify-writes from its driver,
 *                     which applies them without this process (a passive target), or from its data server (default
 *                     AUTO: from the driver where it can, and can hold them back for an access epoch: the kernel
 *                     module).
 * @param passivePuts  where this rank's strided and vector puts to a passive target go (default AUTO: the model's).
 * @param accessEpochs whether this rank may open access epochs (default true); false is announced to every rank at
 *                     {@link Rma#init}, so a get from this rank through the driver skips reading its epoch counter
 *                     after its pulls (a round trip served by this rank's endpoint), and its access epochs are refused.
 */
public record RmaOptions(boolean sharedMemory, Path directory, StridedProtocol strided, ContiguousProtocol contiguous,
    Path modelFile, boolean recalibrate, CalibrationEffort calibration, DriverWrites driverWrites,
    PassivePuts passivePuts, boolean accessEpochs)
{
    /** "0" switches the shared-memory tier off; "1" (or unset) leaves it on. */
    public static final String SHARED_MEMORY_VARIABLE = "PINMX_RMA_SHARED_MEMORY";
    /** Where the shared files go; default /dev/shm. */
    public static final String DIRECTORY_VARIABLE = "PINMX_RMA_DIR";
    /** auto (default), direct or pack. */
    public static final String STRIDED_VARIABLE = "PINMX_RMA_STRIDED";
    /** auto (default), zerocopy or stream. */
    public static final String CONTIGUOUS_VARIABLE = "PINMX_RMA_CONTIGUOUS";
    /**
     * The cost model's cache file (default in pinmx/ under $XDG_CACHE_HOME or $HOME/.cache, one per provider, host and
     * interface).
     */
    public static final String MODEL_FILE_VARIABLE = "PINMX_RMA_MODEL_FILE";
    /** "1": measure the cost model again and rewrite its file; "0" (or unset): use the file when there is one. */
    public static final String RECALIBRATE_VARIABLE = "PINMX_RMA_RECALIBRATE";
    /** full (default) or quick: the rounds of the cost model's measurement ({@link CalibrationEffort}). */
    public static final String CALIBRATION_VARIABLE = "PINMX_RMA_CALIBRATION";
    /**
     * auto (default): this rank's slices take writes from its driver where it applies them without this process and
     * can hold them back; "1": they do, refused on a driver that cannot; "0": only from its data server.
     */
    public static final String DRIVER_WRITES_VARIABLE = "PINMX_RMA_DRIVER_WRITES";
    /** auto (default), module or server: where strided and vector puts to a passive target go. */
    public static final String PASSIVE_PUTS_VARIABLE = "PINMX_RMA_PASSIVE_PUTS";
    /** "1" (or unset): this rank may open access epochs; "0": it announces it opens none. */
    public static final String ACCESS_EPOCHS_VARIABLE = "PINMX_RMA_ACCESS_EPOCHS";

    /**
     * @throws IllegalArgumentException naming the directory if it is not a directory, or a protocol, the calibration
     *                                  effort or the driver writes that is null.
     */
    public RmaOptions
    {
        if (null == directory || !Files.isDirectory(directory))
        {
            throw new IllegalArgumentException("rma shared-file directory " + directory + " is not a directory");
        }
        if (null == strided || null == contiguous)
        {
            throw new IllegalArgumentException("rma protocols must be given (AUTO to let the model choose): strided " +
                strided + ", contiguous " + contiguous);
        }
        if (null == calibration)
        {
            throw new IllegalArgumentException("rma calibration effort must be given (FULL or QUICK)");
        }
        if (null == driverWrites)
        {
            throw new IllegalArgumentException("rma driver writes must be given (AUTO: where the driver can)");
        }
        if (null == passivePuts)
        {
            throw new IllegalArgumentException("rma passive puts must be given (AUTO to let the model choose)");
        }
    }

    /**
     * Shared memory on, /dev/shm, protocols chosen by the model, its file in the default place, fully measured, driver
     * writes where the driver can.
     */
    public static RmaOptions defaults()
    {
        return new RmaOptions(true, Path.of("/dev/shm"), StridedProtocol.AUTO, ContiguousProtocol.AUTO, null, false,
            CalibrationEffort.FULL, DriverWrites.AUTO, PassivePuts.AUTO, true);
    }

    public RmaOptions withSharedMemory(final boolean on)
    {
        return new RmaOptions(on, directory, strided, contiguous, modelFile, recalibrate, calibration,
            driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withDirectory(final Path dir)
    {
        return new RmaOptions(sharedMemory, dir, strided, contiguous, modelFile, recalibrate, calibration,
            driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withStrided(final StridedProtocol protocol)
    {
        return new RmaOptions(sharedMemory, directory, protocol, contiguous, modelFile, recalibrate,
            calibration, driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withContiguous(final ContiguousProtocol protocol)
    {
        return new RmaOptions(sharedMemory, directory, strided, protocol, modelFile, recalibrate,
            calibration, driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withModelFile(final Path file)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, file, recalibrate, calibration,
            driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withRecalibrate(final boolean again)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, modelFile, again, calibration,
            driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withCalibration(final CalibrationEffort effort)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, modelFile, recalibrate, effort,
            driverWrites, passivePuts, accessEpochs);
    }

    public RmaOptions withPassivePuts(final PassivePuts where)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, modelFile, recalibrate, calibration,
            driverWrites, where, accessEpochs);
    }

    public RmaOptions withDriverWrites(final DriverWrites on)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, modelFile, recalibrate, calibration, on,
            passivePuts, accessEpochs);
    }

    public RmaOptions withAccessEpochs(final boolean may)
    {
        return new RmaOptions(sharedMemory, directory, strided, contiguous, modelFile, recalibrate, calibration,
            driverWrites, passivePuts, may);
    }

    /**
     * @throws IllegalArgumentException naming the variable whose value is not valid.
     */
    public static RmaOptions fromEnvironment(final Map<String, String> env)
    {
        final String file = env.get(MODEL_FILE_VARIABLE);
        return new RmaOptions(flag(env, SHARED_MEMORY_VARIABLE, "1"),
            Path.of(env.getOrDefault(DIRECTORY_VARIABLE, "/dev/shm")),
            StridedProtocol.parse(STRIDED_VARIABLE, env.getOrDefault(STRIDED_VARIABLE, "auto")),
            ContiguousProtocol.parse(CONTIGUOUS_VARIABLE, env.getOrDefault(CONTIGUOUS_VARIABLE, "auto")),
            null == file || file.isEmpty() ? null : Path.of(file),
            flag(env, RECALIBRATE_VARIABLE, "0"),
            CalibrationEffort.parse(CALIBRATION_VARIABLE, env.getOrDefault(CALIBRATION_VARIABLE, "full")),
            DriverWrites.parse(DRIVER_WRITES_VARIABLE, env.getOrDefault(DRIVER_WRITES_VARIABLE, "auto")),
            PassivePuts.parse(PASSIVE_PUTS_VARIABLE, env.getOrDefault(PASSIVE_PUTS_VARIABLE, "auto")),
            flag(env, ACCESS_EPOCHS_VARIABLE, "1"));
    }

    private static boolean flag(final Map<String, String> env, final String variable, final String unset)
    {
        final String value = env.getOrDefault(variable, unset);
        if (!"0".equals(value) && !"1".equals(value))
        {
            throw new IllegalArgumentException(variable + "=" + value + ": expected 0 or 1");
        }
        return "1".equals(value);
    }
}
