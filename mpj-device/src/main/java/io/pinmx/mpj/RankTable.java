package io.pinmx.mpj;

import io.pinmx.job.Job;
import io.pinmx.mx.Partner;
import io.pinmx.mx.match.MatchInfo;
import org.agrona.collections.Int2IntHashMap;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The ranks of one init as the device addresses them: each rank's endpoint partner, its ProcessID (fresh at every
 * init) and the way back from a ProcessID or a partner id to the rank. Filled by {@link PinmxDevice#init} before the
 * device opens and only read after, so it needs no lock.
 */
final class RankTable
{
    /** No rank: a receive or probe from any source. */
    static final int NO_RANK = -1;

    private final int rank;
    private final Partner[] partners;
    private final Int2IntHashMap rankOfPartner = new Int2IntHashMap(NO_RANK);
    private final Map<UUID, Integer> rankOfId = new HashMap<>();
    private ProcessID[] ids;

    /**
     * @param rank     this process's rank.
     * @param partners every rank's partner, in rank order (this rank's own included).
     */
    RankTable(final int rank, final Partner[] partners)
    {
        this.rank = rank;
        this.partners = partners;
        for (int r = 0; r < partners.length; r++)
        {
            rankOfPartner.put(partners[r].id(), r);
        }
    }

    /**
     * Draws this rank's ProcessID for this init and gathers every rank's; every rank must be at the same init.
     *
     * @return every rank's ProcessID, in rank order.
     */
    ProcessID[] exchangeIds(final Job job, final int epoch)
    {
        final UUID mine = UUID.randomUUID();
        final List<byte[]> all = job.allGather(
            (epoch + " " + mine).getBytes(StandardCharsets.US_ASCII));
        final ProcessID[] gathered = new ProcessID[all.size()];
        for (int r = 0; r < gathered.length; r++)
        {
            final String[] parts = new String(all.get(r), StandardCharsets.US_ASCII).split(" ");
            if (Integer.parseInt(parts[0]) != epoch)
            {
                throw new XDevException("mxdev (pinmx): rank " + r + " is at MPI.Init number " + parts[0] +
                    ", rank " + rank + " at number " + epoch);
            }
            gathered[r] = new ProcessID(UUID.fromString(parts[1]));
            rankOfId.put(gathered[r].uuid(), r);
        }
        ids = gathered;
        return gathered;
    }

    ProcessID id(final int r)
    {
        return ids[r];
    }

    Partner partner(final int r)
    {
        return partners[r];
    }

    /** The partner id a receive or probe from {@code sourceRank} matches: any source for {@link #NO_RANK}. */
    int partnerIdOrAny(final int sourceRank)
    {
        return NO_RANK == sourceRank ? MatchInfo.ANY_SOURCE : partners[sourceRank].id();
    }

    int rankOfPartner(final int partnerId)
    {
        return rankOfPartner.get(partnerId);
    }

    /**
     * @param role what the id stands for in the call, for the error.
     * @return the rank of a process of this job.
     * @throws XDevException naming the id if it is null or not a process of this job.
     */
    int rankOf(final ProcessID id, final String role)
    {
        final Integer r = null == id ? null : rankOfId.get(id.uuid());
        if (null == r)
        {
            throw new XDevException("mxdev (pinmx) rank " + rank + ": " + role + " " +
                (null == id ? "null" : id.uuid()) + " is not a process of this job");
        }
        return r;
    }

    /** A receive's or probe's source: {@link #NO_RANK} for MPJ's ANY_SRC, else its rank. */
    int sourceRank(final ProcessID id)
    {
        return null != id && Device.ANY_SRC.uuid().equals(id.uuid()) ? NO_RANK : rankOf(id, "source");
    }
}
