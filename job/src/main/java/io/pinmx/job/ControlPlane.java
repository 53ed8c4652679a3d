package io.pinmx.job;

import java.net.InetAddress;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * How the ranks of a {@link Job} reach each other for its collectives: the TCP star through rank 0
 * ({@link TcpStar}) or the launcher's PMIx server ({@link PmixExchange}). {@link Job#join} chooses one; the
 * job checks arguments before it calls here. Collectives are called by every rank in the same order.
 */
interface ControlPlane extends AutoCloseable
{
    List<byte[]> allGather(byte[] mine);

    void barrier();

    byte[] broadcast(int root, byte[] bytes);

    /** On root every rank's bytes indexed by rank, elsewhere an empty list. */
    List<byte[]> gather(int root, byte[] mine);

    /** What to run while this rank waits on the others (null: just wait). */
    void progressHook(Runnable hook);

    /** The local address of this rank's control connection, or null when the plane has no connection of its own. */
    InetAddress controlAddress();

    /** The ranks sharing this rank's node as the launcher tells it (this one included), or null when unknown. */
    int[] nodeRanks();

    /**
     * Tells {@code listener} (rank, why) of a rank the launcher reports dead; a plane without such reports never
     * calls it (the TCP star learns of a death as a lost connection).
     */
    void onRankDeath(BiConsumer<Integer, String> listener);

    @Override
    void close();
}
