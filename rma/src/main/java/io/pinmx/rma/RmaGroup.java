package io.pinmx.rma;

import java.util.Arrays;
import java.util.List;

/**
 * A set of the job's ranks in an order of its own (ARMCI's group): member i has group rank i and a world rank (its
 * rank in the job). Collectives over a group (allocation and free, mutexes, barrier, reductions, broadcast, creating
 * child groups) take only its members. Data operations name targets by world rank everywhere; an allocation or mutex
 * set of a group refuses a target that is not a member, naming it. The world group ({@link Rma#worldGroup()}) holds
 * every rank in rank order and is never freed; other groups come from {@link RmaGroups#create(RmaGroup, int[])} and
 * {@link RmaGroups#split(RmaGroup, int, int)} and end with {@link RmaGroups#free(RmaGroup)}.
 */
public final class RmaGroup
{
    /** The group rank of a rank that is not a member (ARMCI-MPI's MPI_UNDEFINED). */
    public static final int NOT_A_MEMBER = -1;

    private static final int ALLOCATION_ID_BITS = 24;

    /** How the members exchange one byte array each, in group order. */
    interface Exchange
    {
        List<byte[]> allGather(RmaGroup group, byte[] mine);

        void barrier(RmaGroup group);
    }

    enum State
    {
        LIVE, FREED
    }

    private final long id;
    private final int[] members;
    private final int[] groupRanks;
    private final int self;
    private final Exchange exchange;
    private State state = State.LIVE;
    /** Allocations over this group so far: in step on every member, as allocation is collective. */
    private long allocations;

    /**
     * @param members   world ranks in group order (distinct, each in the job).
     * @param worldSize ranks in the job.
     * @param self      this rank's world rank.
     */
    RmaGroup(final long id, final int[] members, final int worldSize, final int self, final Exchange exchange)
    {
        this.id = id;
        this.members = members.clone();
        this.groupRanks = new int[worldSize];
        Arrays.fill(groupRanks, NOT_A_MEMBER);
        for (int i = 0; i < members.length; i++)
        {
            groupRanks[members[i]] = i;
        }
        this.self = self;
        this.exchange = exchange;
    }

    /** @return the group's number within the job (the same on every member; 0 for the world group). */
    public long id()
    {
        return id;
    }

    /** @return the number of members. */
    public int size()
    {
        return members.length;
    }

    /** @return this rank's group rank, or {@link #NOT_A_MEMBER} (ARMCI_Group_rank). */
    public int rank()
    {
        return groupRanks[self];
    }

    /**
     * @return the world rank of the member with that group rank (ARMCI_Absolute_id).
     * @throws IllegalArgumentException naming the group rank if it is outside 0..size-1.
     */
    public int worldRank(final int groupRank)
    {
        if (groupRank < 0 || groupRank >= members.length)
        {
            throw new IllegalArgumentException("group rank " + groupRank + " is not in group " + id + " (0.." +
                (members.length - 1) + ")");
        }
        return members[groupRank];
    }

    /**
     * @return the group rank of the rank with that world rank, or {@link #NOT_A_MEMBER}.
     * @throws IllegalArgumentException naming the world rank if the job has no such rank.
     */
    public int groupRank(final int worldRank)
    {
        if (worldRank < 0 || worldRank >= groupRanks.length)
        {
            throw new IllegalArgumentException("world rank " + worldRank + " is not a rank of this job (0.." +
                (groupRanks.length - 1) + ")");
        }
        return groupRanks[worldRank];
    }

    /** @return the members' world ranks in group order. */
    public int[] worldRanks()
    {
        return members.clone();
    }

    /** @return whether the world rank is a member (false for a rank outside the job). */
    public boolean contains(final int worldRank)
    {
        return worldRank >= 0 && worldRank < groupRanks.length && NOT_A_MEMBER != groupRanks[worldRank];
    }

    public boolean isFreed()
    {
        return State.FREED == state;
    }

    /**
     * @throws IllegalArgumentException if the group is null or this rank is not a member.
     * @throws IllegalStateException    if the group was freed.
     */
    static void check(final RmaGroup group, final String what)
    {
        if (null == group)
        {
            throw new IllegalArgumentException(what + ": the group is null");
        }
        group.checkCollective(what);
    }

    /**
     * @throws IllegalStateException    naming the group if it was freed.
     * @throws IllegalArgumentException naming this rank if it is not a member (only members take part in a group's
     *                                  collectives).
     */
    void checkCollective(final String what)
    {
        checkLive(what);
        if (NOT_A_MEMBER == groupRanks[self])
        {
            throw new IllegalArgumentException(what + ": rank " + self + " is not in group " + id + " " +
                Arrays.toString(members));
        }
    }

    void checkLive(final String what)
    {
        if (State.FREED == state)
        {
            throw new IllegalStateException(what + ": group " + id + " was freed");
        }
    }

    /**
     * @throws IllegalArgumentException naming the world rank and the group if the rank is not a member.
     */
    void checkMember(final int worldRank, final String what)
    {
        if (!contains(worldRank))
        {
            throw new IllegalArgumentException(what + ": rank " + worldRank + " is not in group " + id + " " +
                Arrays.toString(members));
        }
    }

    /** @return one byte array from each member, in group order; the caller checked {@link #checkCollective}. */
    List<byte[]> allGather(final byte[] mine)
    {
        return exchange.allGather(this, mine);
    }

    void barrier()
    {
        exchange.barrier(this);
    }

    /**
     * @return the next allocation's id: unique in the job as long as group ids are below 2^39 and a group makes fewer
     *         than 2^24 allocations (the world group, id 0, numbers them 0, 1, 2, ...).
     */
    long nextAllocationId()
    {
        return id << ALLOCATION_ID_BITS | allocations;
    }

    /** Every member agreed on {@link #nextAllocationId()}: the next allocation takes the next id. */
    void allocationAgreed()
    {
        allocations++;
    }

    /** Marks the group freed; the caller took every member through the collective free. */
    void free()
    {
        state = State.FREED;
    }

    @Override
    public String toString()
    {
        return "RmaGroup{" + id + ", world ranks " + Arrays.toString(members) + (isFreed() ? ", freed" : "") + '}';
    }
}
