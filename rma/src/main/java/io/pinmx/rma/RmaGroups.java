package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Creates, splits and frees the groups ({@link RmaGroup}) of one {@link Rma}, each collective over its parent's
 * members ({@code ARMCI_Group_create_child}, a split by colour and key, {@code ARMCI_Group_free}). Owns the world
 * group, this rank's count of groups created (which numbers new groups: a new group's id is its parent's lowest
 * world rank and that rank's count, so no two groups of the job share one) and the mailboxes the other groups
 * exchange through, allocated over the world at the first group created from it.
 */
public final class RmaGroups
{
    private static final int ID_RANK_SHIFT = 24;
    private static final int HEADER_INTS = 4;

    /** What a member of the parent is doing in the gather, so that a member in another call is named. */
    private enum Call
    {
        CREATE, SPLIT
    }

    private final Rma rma;
    private final Job job;
    private final Allocator allocator;
    private final Transfers transfers;
    private final Ranks ranks;
    private final Arena arena;
    private final RmaGroup world;
    private final Hosts hosts;
    private GroupMailboxes mailboxes;
    private int created;
    private RmaGroup defaultGroup;

    /** One member's exchange with itself: a scope that takes in only this rank. */
    private static final RmaGroup.Exchange ALONE = new RmaGroup.Exchange()
    {
        @Override
        public List<byte[]> allGather(final RmaGroup group, final byte[] mine)
        {
            return List.of(mine);
        }

        @Override
        public void barrier(final RmaGroup group)
        {
        }
    };

    /**
     * Collective: on a job over several hosts, opens the mailboxes at once, as a scope's members exchange through
     * them without the rest of the job.
     */
    RmaGroups(final Rma rma, final Job job, final Allocator allocator, final Transfers transfers, final Ranks ranks,
        final Arena arena, final Hosts hosts)
    {
        this.hosts = hosts;
        this.rma = rma;
        this.job = job;
        this.allocator = allocator;
        this.transfers = transfers;
        this.ranks = ranks;
        this.arena = arena;
        final int[] everyone = new int[job.size()];
        Arrays.setAll(everyone, r -> r);
        this.world = new RmaGroup(0, everyone, job.size(), job.rank(), new RmaGroup.Exchange()
        {
            @Override
            public List<byte[]> allGather(final RmaGroup group, final byte[] mine)
            {
                return job.allGather(mine);
            }

            @Override
            public void barrier(final RmaGroup group)
            {
                job.barrier();
            }
        });
        this.defaultGroup = world;
        if (!hosts.oneHost())
        {
            openMailboxes();
        }
    }

    /**
     * The members of the group the scope takes in, as a group of their own built here alone (every member computes
     * the same), exchanging through the mailboxes; the group itself when the scope takes in every member.
     *
     * @return null when this rank takes no part (it is not its host's master, in MASTERS).
     */
    RmaGroup scoped(final ArmciScope scope, final RmaGroup group)
    {
        final int[] members = hosts.members(scope, group);
        if (null == members)
        {
            return null;
        }
        if (members.length == group.size())
        {
            return group;
        }
        return new RmaGroup(group.id(), members, job.size(), job.rank(), 1 == members.length ? ALONE : mailboxes);
    }

    /** @return the group of every rank in rank order (ARMCI_GROUP_WORLD); never freed. */
    public RmaGroup world()
    {
        return world;
    }

    /**
     * @return the group {@link Rma#alloc(long)} allocates over and {@link Rma#barrier()} waits for
     *         ({@code ARMCI_Group_get_default}): the world group unless {@link #setDefault(RmaGroup)} chose another.
     */
    public RmaGroup defaultGroup()
    {
        return defaultGroup;
    }

    /**
     * {@code ARMCI_Group_set_default}: this rank's allocations and barriers that name no group take this one from now
     * on (each member sets it: the calls stay collective over its members). Freeing it later makes those calls fail
     * naming it until another is set.
     *
     * @throws IllegalArgumentException if the group is null or this rank is not a member.
     * @throws IllegalStateException    naming the group if it was freed.
     */
    public void setDefault(final RmaGroup group)
    {
        RmaGroup.check(group, "default group");
        defaultGroup = group;
    }

    /**
     * Collective over the parent's members: a group of the listed parent ranks, in list order; every member of the
     * parent gives the same list. A parent member not in the list gets the group with {@link RmaGroup#rank()}
     * {@link RmaGroup#NOT_A_MEMBER}.
     *
     * @throws IllegalArgumentException on this rank for a null parent, a list that is null, names a rank outside the
     *                                  parent or one twice (the other members then fail naming this rank), or if this
     *                                  rank is not in the parent.
     * @throws IllegalStateException    if the parent was freed.
     * @throws RmaException             naming the member whose list differs, that refused its list, or that is in
     *                                  another collective call.
     */
    public RmaGroup create(final RmaGroup parent, final int[] parentRanks)
    {
        rma.checkOpen();
        checkParent(parent, "group creation");
        final String refusal = refusal(parent, parentRanks);
        final int[] list = null == refusal ? parentRanks : new int[0];
        final ByteBuffer mine = header(Call.CREATE, null == refusal ? 0 : 1, list.length, 0, list.length);
        for (final int r : list)
        {
            mine.putInt(r);
        }
        final List<byte[]> all = gather(parent, mine);
        if (null != refusal)
        {
            throw new IllegalArgumentException("group creation: " + refusal);
        }
        for (int g = 0; g < all.size(); g++)
        {
            final ByteBuffer theirs = ByteBuffer.wrap(all.get(g));
            checkCall(parent, g, theirs, Call.CREATE);
            if (0 != theirs.getInt(Integer.BYTES * 2))
            {
                throw new RmaException("group creation: rank " + parent.worldRank(g) + " refused its list of ranks");
            }
            final int[] theirList = new int[theirs.getInt(Integer.BYTES * 3)];
            theirs.position(Integer.BYTES * HEADER_INTS);
            theirs.asIntBuffer().get(theirList);
            if (!Arrays.equals(theirList, parentRanks))
            {
                throw new RmaException("collective mismatch in group creation: rank " + parent.worldRank(g) +
                    " gives parent ranks " + Arrays.toString(theirList) + ", rank " + job.rank() + " gives " +
                    Arrays.toString(parentRanks));
            }
        }
        final long id = newIds(parent, all, 1);
        final int[] members = new int[parentRanks.length];
        for (int i = 0; i < members.length; i++)
        {
            members[i] = parent.worldRank(parentRanks[i]);
        }
        return newGroup(id, members);
    }

    /**
     * Collective over the parent's members: those giving the same colour (0 or more) form one group, ordered by key,
     * then by parent rank; a member giving a negative colour is in none (it gets a group of no members).
     *
     * @throws IllegalArgumentException for a null parent, or if this rank is not in it.
     * @throws IllegalStateException    if the parent was freed.
     * @throws RmaException             naming a member in another collective call.
     */
    public RmaGroup split(final RmaGroup parent, final int colour, final int key)
    {
        rma.checkOpen();
        checkParent(parent, "group split");
        final List<byte[]> all = gather(parent, header(Call.SPLIT, 0, 0, colour, key));
        final TreeMap<Integer, List<int[]>> byColour = new TreeMap<>();
        for (int g = 0; g < all.size(); g++)
        {
            final ByteBuffer theirs = ByteBuffer.wrap(all.get(g));
            checkCall(parent, g, theirs, Call.SPLIT);
            final int theirColour = theirs.getInt(Integer.BYTES * 2);
            if (theirColour >= 0)
            {
                byColour.computeIfAbsent(theirColour, c -> new ArrayList<>())
                    .add(new int[] {theirs.getInt(Integer.BYTES * 3), g});
            }
        }
        final long firstId = newIds(parent, all, Math.max(1, byColour.size()));
        if (colour < 0)
        {
            return new RmaGroup(-1, new int[0], job.size(), job.rank(), mailboxes);
        }
        final List<int[]> mine = byColour.get(colour);
        mine.sort(Comparator.<int[]>comparingInt(m -> m[0]).thenComparingInt(m -> m[1]));
        final int[] members = new int[mine.size()];
        for (int i = 0; i < members.length; i++)
        {
            members[i] = parent.worldRank(mine.get(i)[1]);
        }
        return newGroup(firstId + byColour.headMap(colour).size(), members);
    }

    /**
     * Collective over the group's members; a rank outside it only marks its own handle freed.
     *
     * @throws IllegalArgumentException for a null group or the world group.
     * @throws IllegalStateException    naming the group if it was freed, or an allocation over it not yet freed.
     */
    public void free(final RmaGroup group)
    {
        if (null == group)
        {
            throw new IllegalArgumentException("group to free is null");
        }
        if (world == group)
        {
            throw new IllegalArgumentException("the world group is never freed");
        }
        group.checkLive("group free");
        final long allocation = allocator.liveIn(group);
        if (allocation >= 0)
        {
            throw new IllegalStateException("group " + group.id() + " still has allocation " + allocation +
                " (free it first)");
        }
        if (RmaGroup.NOT_A_MEMBER != group.rank())
        {
            group.barrier();
        }
        group.free();
    }

    private void checkParent(final RmaGroup parent, final String what)
    {
        if (null == parent)
        {
            throw new IllegalArgumentException(what + ": the parent group is null");
        }
        parent.checkCollective(what);
        if (world == parent && null == mailboxes)
        {
            // Every rank is in this call: the mailboxes are a world allocation made at the same point everywhere.
            openMailboxes();
        }
    }

    private void openMailboxes()
    {
        mailboxes = new GroupMailboxes(transfers, ranks, allocator.alloc(world, GroupMailboxes.sliceBytes(job.size())),
            job.rank(), arena);
    }

    /** @return why the list is refused, or null. */
    private static String refusal(final RmaGroup parent, final int[] parentRanks)
    {
        if (null == parentRanks)
        {
            return "the list of ranks is null";
        }
        final boolean[] seen = new boolean[parent.size()];
        for (final int r : parentRanks)
        {
            if (r < 0 || r >= parent.size())
            {
                return "rank " + r + " is not a rank of parent group " + parent.id() + " (0.." + (parent.size() - 1) + ")";
            }
            if (seen[r])
            {
                return "rank " + r + " is listed twice";
            }
            seen[r] = true;
        }
        return null;
    }

    private ByteBuffer header(final Call call, final int refused, final int listLength, final int colour, final int key)
    {
        final ByteBuffer b = ByteBuffer.allocate(Integer.BYTES * (HEADER_INTS + listLength));
        b.putInt(call.ordinal()).putInt(created);
        if (Call.CREATE == call)
        {
            b.putInt(refused).putInt(listLength);
        }
        else
        {
            b.putInt(colour).putInt(key);
        }
        return b;
    }

    private static List<byte[]> gather(final RmaGroup parent, final ByteBuffer mine)
    {
        return parent.allGather(mine.array());
    }

    private static void checkCall(final RmaGroup parent, final int g, final ByteBuffer theirs, final Call call)
    {
        if (theirs.capacity() < Integer.BYTES * HEADER_INTS || call.ordinal() != theirs.getInt(0))
        {
            throw new RmaException("collective mismatch: rank " + parent.worldRank(g) + " is in another collective " +
                "call while this rank is in group " + call.name().toLowerCase() + " over group " + parent.id());
        }
    }

    /**
     * @return the first of {@code count} new group ids: the parent's lowest world rank and its count of groups
     *         created, which every member advances by {@code count}.
     */
    private long newIds(final RmaGroup parent, final List<byte[]> all, final int count)
    {
        int lowest = Integer.MAX_VALUE;
        int lowestCount = 0;
        for (int g = 0; g < all.size(); g++)
        {
            if (parent.worldRank(g) < lowest)
            {
                lowest = parent.worldRank(g);
                lowestCount = ByteBuffer.wrap(all.get(g)).getInt(Integer.BYTES);
            }
        }
        created += count;
        return (long)(lowest + 1) << ID_RANK_SHIFT | lowestCount;
    }

    private RmaGroup newGroup(final long id, final int[] members)
    {
        return new RmaGroup(id, members, job.size(), job.rank(), mailboxes);
    }
}
