package io.pinmx.rma;

import io.pinmx.job.Job;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Which host each rank of the job runs on, named by the lowest world rank there, learnt collectively at start (each
 * rank knows only which ranks share its own host); and the members of a group an {@link ArmciScope} takes in.
 */
final class Hosts
{
    private final int[] hostOf;
    private final int self;
    private final boolean oneHost;

    Hosts(final int[] hostOf, final int self)
    {
        this.hostOf = hostOf.clone();
        this.self = self;
        this.oneHost = Arrays.stream(hostOf).allMatch(h -> h == hostOf[0]);
    }

    /** Collective: every rank gives the lowest rank on its host. */
    static Hosts exchange(final Job job, final Ranks ranks)
    {
        int lowest = job.rank();
        for (int r = 0; r < job.size(); r++)
        {
            if (ranks.sameHost(r))
            {
                lowest = Math.min(lowest, r);
            }
        }
        final List<byte[]> all = job.allGather(ByteBuffer.allocate(Integer.BYTES).putInt(lowest).array());
        final int[] hostOf = new int[all.size()];
        for (int r = 0; r < hostOf.length; r++)
        {
            hostOf[r] = ByteBuffer.wrap(all.get(r)).getInt();
        }
        return new Hosts(hostOf, job.rank());
    }

    /** @return whether every rank of the job runs on one host. */
    boolean oneHost()
    {
        return oneHost;
    }

    /**
     * @return the world ranks of the group's members the scope takes in, in group order, when this rank (a member) is
     *         one of them; null when it takes no part (a member that is not its host's master, in MASTERS).
     */
    int[] members(final ArmciScope scope, final RmaGroup group)
    {
        final int[] all = group.worldRanks();
        return switch (scope)
        {
            case ALL -> all;
            case NODE -> Arrays.stream(all).filter(r -> hostOf[r] == hostOf[self]).toArray();
            case MASTERS -> isMaster(all, self) ? Arrays.stream(all).filter(r -> isMaster(all, r)).toArray() : null;
        };
    }

    private boolean isMaster(final int[] members, final int r)
    {
        for (final int m : members)
        {
            if (hostOf[m] == hostOf[r] && m < r)
            {
                return false;
            }
        }
        return true;
    }
}
