package io.pinmx.rma;

/**
 * Where a strided or vector put to a passive target goes (option {@code PINMX_RMA_PASSIVE_PUTS}): its driver
 * scattering each piece ({@link ModuleWrites}, the NIC-based protocol) or its data server unpacking (the host-based
 * one). Contiguous puts, accumulates and read-modify-writes on a passive target always go to its driver.
 */
public enum PassivePuts
{
    /** Chosen per request by the measured cost model ({@link CostModel#scatterByModule}), while the server answers. */
    AUTO,
    /** The target's driver scatters every piece, in softirq on the kernel module. */
    MODULE,
    /** The target's data server, in the strided protocol {@link StridedProtocol} chooses. */
    SERVER;

    /**
     * @throws IllegalArgumentException naming the variable and the word if it is not auto, module or server.
     */
    static PassivePuts parse(final String variable, final String word)
    {
        return switch (word)
        {
            case "auto" -> AUTO;
            case "module" -> MODULE;
            case "server" -> SERVER;
            default -> throw new IllegalArgumentException(variable + "=" + word + ": expected auto, module or server");
        };
    }
}
