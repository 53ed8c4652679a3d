package io.pinmx.pin.provider;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One endpoint's peer slots: up to {@link #MAX_PEERS} entries, each found by its index (slot in the low
 * {@link #SLOT_BITS} bits, the slot's generation above) or by the provider's key through an open-addressing hash.
 * <p>
 * Lifetime: an entry lives while the library holds references to it ({@code acquirePeer}, {@code retainPeer},
 * dropped by {@code releasePeer}) or something in flight holds it (an event queued or being delivered, a pull
 * running). An entry with neither stays usable, but when a new peer needs room and no slot was ever free the least
 * recently used such entry is reclaimed: its slot gets the next generation, so its old index is refused from then
 * on ({@link #entry} returns null) rather than reaching the slot's new peer.
 * <p>
 * Concurrency: adding, reclaiming and references are serialised by this object's monitor. Finding by index or key
 * and holding are lock-free and allocation-free: slots and hash cells are published with release stores after the
 * entry is complete. A hold is taken by incrementing {@code holds} and then checking the entry is still in its slot;
 * reclaim empties the slot and then checks {@code holds} (both sequentially consistent), so either the holder sees
 * the slot emptied and retries under the lock, or reclaim sees the hold and puts the entry back. A lock-free key
 * lookup may miss an entry that a concurrent reclaim is moving in the hash; callers that must not miss confirm
 * under the lock with {@link #findOrAdd}.
 * <p>
 * Both providers use it directly as their endpoint's peer table, with their own {@link PeerKey}: the contract's
 * operations on peers ({@link #acquire}, {@link #retainOrThrow}, {@link #release}, {@link #entryOrThrow},
 * {@link #holdOrThrow}) and the sources of received frames ({@link #holdSource}), with the contract's errors.
 *
 * @param <P> the provider's entry type.
 */
public final class PeerRegistry<P extends PeerEntry>
{
    /** Most peers of one endpoint. */
    public static final int MAX_PEERS = 4096;
    /** Bits of a peer index that name the slot. */
    public static final int SLOT_BITS = 12;
    private static final int SLOT_MASK = MAX_PEERS - 1;
    /** Generations wrap at 2^19, keeping indexes positive: an index is refused until its slot is reused 2^19 times. */
    private static final int GENERATION_MASK = (1 << (Integer.SIZE - 1 - SLOT_BITS)) - 1;
    private static final int HASH_CELLS = MAX_PEERS * 2;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(PeerEntry[].class);
    private static final VarHandle HOLDS;

    static
    {
        try
        {
            HOLDS = MethodHandles.lookup().findVarHandle(PeerEntry.class, "holds", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How {@link #findOrAdd} keeps the entry it returns. */
    public enum Use
    {
        /** One library reference ({@code acquirePeer}). */
        REFERENCE,
        /** One hold for an event or pull, released with {@link #releaseHold}. */
        HOLD
    }

    private final DriverCounters counters;
    private final PeerEntry[] slots = new PeerEntry[MAX_PEERS];
    private final PeerEntry[] cells = new PeerEntry[HASH_CELLS];
    private final int[] generations = new int[MAX_PEERS];
    /** Slots handed out at least once; below it every slot holds an entry (under the lock). */
    private int slotsUsed;
    private long reclaimed;
    /** Plain and racy: orders reclaim candidates only. */
    private long tick;

    /**
     * @param counters the endpoint's counters ({@link Counter#PEERS_RECLAIMED}).
     */
    public PeerRegistry(final DriverCounters counters)
    {
        this.counters = counters;
    }

    /**
     * Lock-free.
     *
     * @param peerIndex an index as handed out, or anything.
     * @return the entry the index names, or null when it was never handed out or its slot has been reclaimed.
     */
    @SuppressWarnings("unchecked")
    public P entry(final int peerIndex)
    {
        if (peerIndex < 0)
        {
            return null;
        }
        final PeerEntry entry = (PeerEntry)CELL.getAcquire(slots, peerIndex & SLOT_MASK);
        return null != entry && entry.index() == peerIndex ? (P)entry : null;
    }

    /** @return the first hash cell to probe for a key with this hash. */
    public static int firstProbe(final int keyHash)
    {
        final int h = keyHash * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (HASH_CELLS - 1);
    }

    /** @return the cell after {@code probe}. */
    public static int nextProbe(final int probe)
    {
        return (probe + 1) & (HASH_CELLS - 1);
    }

    /**
     * Lock-free: the entry in a hash cell. A provider's key lookup walks from {@link #firstProbe} with
     * {@link #nextProbe} until it finds its key or a null cell (there is always one: the hash has twice as many
     * cells as slots).
     */
    @SuppressWarnings("unchecked")
    public P probed(final int probe)
    {
        return (P)CELL.getAcquire(cells, probe);
    }

    /**
     * Lock-free: hold an entry found without the lock, so it is not reclaimed until {@link #releaseHold}.
     *
     * @return false when it has been reclaimed meanwhile (then look it up again under the lock).
     */
    public boolean hold(final P entry)
    {
        HOLDS.getAndAdd(entry, 1);
        if (CELL.getVolatile(slots, entry.index() & SLOT_MASK) == entry)
        {
            return true;
        }
        HOLDS.getAndAdd(entry, -1);
        return false;
    }

    /** Lock-free: drop one hold taken by {@link #hold} or {@link #findOrAdd} with {@link Use#HOLD}. */
    public void releaseHold(final P entry)
    {
        HOLDS.getAndAdd(entry, -1);
    }

    /** Mark an entry used now (reclaim takes the least recently used first). */
    public void touch(final P entry)
    {
        entry.lastUsedTick = ++tick;
    }

    /**
     * Find the entry with a key, or add one, and keep it as {@code use} says.
     *
     * @return the entry, or null when every slot is referenced or held.
     */
    public synchronized P findOrAdd(final PeerKey<P> key, final Use use)
    {
        final int keyHash = key.keyHash();
        P entry = findLocked(key);
        if (null == entry)
        {
            final int slot = freeSlot();
            if (slot < 0)
            {
                return null;
            }
            entry = key.create(generations[slot] << SLOT_BITS | slot);
            if (entry.index() != (generations[slot] << SLOT_BITS | slot) || entry.keyHash() != keyHash)
            {
                throw new IllegalArgumentException("entry built with index " + entry.index() + " and hash " +
                    entry.keyHash() + ", not the ones given");
            }
            insertCell(entry);
            CELL.setVolatile(slots, slot, entry);
        }
        if (use == Use.REFERENCE)
        {
            entry.references++;
        }
        else
        {
            HOLDS.getAndAdd(entry, 1);
        }
        touch(entry);
        return entry;
    }

    /**
     * The contract's {@code acquirePeer}: the entry for {@code key} with one library reference.
     *
     * @param board    the board the key was made from, for the message.
     * @param endpoint the endpoint, for the message.
     * @throws DriverException NO_RESOURCES when every slot is referenced or held.
     */
    public P acquire(final Object board, final PeerKey<P> key, final Object endpoint)
    {
        final P entry = findOrAdd(key, Use.REFERENCE);
        if (null == entry)
        {
            throw new DriverException(DriverError.NO_RESOURCES, "acquirePeer " + board + " on endpoint " + endpoint +
                ": " + describeFull());
        }
        return entry;
    }

    /**
     * The entry of a received frame's or event's source, held for the event it becomes (until
     * {@link #releaseHold}); added when new. Lock-free and allocation-free when the entry is there.
     *
     * @return the entry, or null when every slot is referenced or held.
     */
    public P holdSource(final PeerKey<P> key)
    {
        final int keyHash = key.keyHash();
        for (int probe = firstProbe(keyHash); ; probe = nextProbe(probe))
        {
            final P entry = probed(probe);
            if (null == entry)
            {
                break;
            }
            if (entry.keyHash() == keyHash && key.matches(entry) && hold(entry))
            {
                touch(entry);
                return entry;
            }
        }
        return findOrAdd(key, Use.HOLD);
    }

    /**
     * Lock-free: the entry an index names.
     *
     * @throws DriverException UNKNOWN_PEER, naming the operation, the endpoint and why, when it is not current.
     */
    public P entryOrThrow(final String operation, final int peerIndex, final Object endpoint)
    {
        final P entry = entry(peerIndex);
        if (null == entry)
        {
            throw unknownPeer(operation, peerIndex, endpoint);
        }
        return entry;
    }

    /**
     * Lock-free: the entry an index names, held until {@link #releaseHold}.
     *
     * @throws DriverException UNKNOWN_PEER when the index is not current.
     */
    public P holdOrThrow(final String operation, final int peerIndex, final Object endpoint)
    {
        final P entry = entry(peerIndex);
        if (null == entry || !hold(entry))
        {
            throw unknownPeer(operation, peerIndex, endpoint);
        }
        return entry;
    }

    /**
     * The contract's {@code retainPeer}: one more library reference.
     *
     * @throws DriverException UNKNOWN_PEER when the index is not current.
     */
    public void retainOrThrow(final int peerIndex, final Object endpoint)
    {
        if (null == retain(peerIndex))
        {
            throw unknownPeer("retainPeer", peerIndex, endpoint);
        }
    }

    /** Lock-free: drop the hold of the entry an index names (poll has delivered the event naming it). */
    public void releaseHold(final int peerIndex)
    {
        final P entry = entry(peerIndex);
        if (null != entry)
        {
            releaseHold(entry);
        }
    }

    /** @return the contract's UNKNOWN_PEER error for an index that is not current, saying why. */
    public DriverException unknownPeer(final String operation, final int peerIndex, final Object endpoint)
    {
        return new DriverException(DriverError.UNKNOWN_PEER, operation + ": peer index " + peerIndex +
            " is not in the peer table of endpoint " + endpoint + describeIndex(peerIndex));
    }

    /**
     * One more library reference.
     *
     * @return the entry, or null when the index is not current.
     */
    public synchronized P retain(final int peerIndex)
    {
        final P entry = entry(peerIndex);
        if (null != entry)
        {
            entry.references++;
            touch(entry);
        }
        return entry;
    }

    /**
     * Drop one library reference.
     *
     * @param operation the contract operation, for the message.
     * @param owner     the endpoint, for the message.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming the index when it is not current or holds no
     *                         reference.
     */
    public synchronized void release(final int peerIndex, final String operation, final Object owner)
    {
        final P entry = entry(peerIndex);
        if (null == entry)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, operation + ": peer index " + peerIndex +
                " is not in the peer table of endpoint " + owner + describeIndex(peerIndex));
        }
        if (entry.references == 0)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, operation + ": peer index " + peerIndex + " (" +
                entry.board() + ") holds no reference to release");
        }
        entry.references--;
        touch(entry);
    }

    /** @return text saying why an index that is not current is refused. */
    public String describeIndex(final int peerIndex)
    {
        if (peerIndex < 0)
        {
            return "";
        }
        final int slot = peerIndex & SLOT_MASK;
        final int generation = peerIndex >>> SLOT_BITS;
        synchronized (this)
        {
            return slot < slotsUsed && generation != generations[slot] ?
                " (slot " + slot + " was reclaimed: its generation is " + generations[slot] + ", the index names " +
                generation + ")" : "";
        }
    }

    /** @return a message for a full table: how many entries are referenced and how many held. */
    public synchronized String describeFull()
    {
        int referenced = 0;
        int held = 0;
        for (int slot = 0; slot < slotsUsed; slot++)
        {
            final PeerEntry entry = slots[slot];
            if (entry.references > 0)
            {
                referenced++;
            }
            else if (entry.holds > 0)
            {
                held++;
            }
        }
        return "peer table full: all " + MAX_PEERS + " peers are in use (" + referenced +
            " referenced by the library, " + held + " only by events not yet polled or pulls in flight); " +
            "releasePeer the peers whose partners are gone";
    }

    /** @return entries present (referenced, held or reclaimable). */
    public synchronized int size()
    {
        return slotsUsed;
    }

    /** @return entries present that are referenced or held (not reclaimable). */
    public synchronized int inUse()
    {
        int n = 0;
        for (int slot = 0; slot < slotsUsed; slot++)
        {
            n += slots[slot].references > 0 || slots[slot].holds > 0 ? 1 : 0;
        }
        return n;
    }

    /** @return entries reclaimed since the endpoint opened. */
    public synchronized long reclaimed()
    {
        return reclaimed;
    }

    private P findLocked(final PeerKey<P> key)
    {
        final int keyHash = key.keyHash();
        for (int probe = firstProbe(keyHash); ; probe = nextProbe(probe))
        {
            final P entry = probed(probe);
            if (null == entry)
            {
                return null;
            }
            if (entry.keyHash() == keyHash && key.matches(entry))
            {
                return entry;
            }
        }
    }

    /** @return a slot for a new entry (never used, or reclaimed from the least recently used idle entry), or -1. */
    private int freeSlot()
    {
        if (slotsUsed < MAX_PEERS)
        {
            return slotsUsed++;
        }
        while (true)
        {
            PeerEntry victim = null;
            for (final PeerEntry entry : slots)
            {
                if (entry.references == 0 && entry.holds == 0 &&
                    (null == victim || entry.lastUsedTick < victim.lastUsedTick))
                {
                    victim = entry;
                }
            }
            if (null == victim)
            {
                return -1;
            }
            final int slot = victim.index() & SLOT_MASK;
            CELL.setVolatile(slots, slot, null);
            if ((int)HOLDS.getVolatile(victim) != 0)
            {
                // a lock-free holder got it first: it stays
                CELL.setVolatile(slots, slot, victim);
                continue;
            }
            removeCell(victim);
            generations[slot] = (generations[slot] + 1) & GENERATION_MASK;
            reclaimed++;
            counters.increment(Counter.PEERS_RECLAIMED);
            return slot;
        }
    }

    private void insertCell(final PeerEntry entry)
    {
        int probe = firstProbe(entry.keyHash());
        while (null != cells[probe])
        {
            probe = nextProbe(probe);
        }
        CELL.setRelease(cells, probe, entry);
    }

    /** Linear-probing deletion: later entries of the cluster move back so no probe stops early at the hole. */
    private void removeCell(final PeerEntry entry)
    {
        int hole = firstProbe(entry.keyHash());
        while (cells[hole] != entry)
        {
            hole = nextProbe(hole);
        }
        int probe = hole;
        while (true)
        {
            probe = nextProbe(probe);
            final PeerEntry moving = cells[probe];
            if (null == moving)
            {
                break;
            }
            final int home = firstProbe(moving.keyHash());
            final boolean homeBetween = hole <= probe ? hole < home && home <= probe : hole < home || home <= probe;
            if (!homeBetween)
            {
                CELL.setRelease(cells, hole, moving);
                hole = probe;
            }
        }
        CELL.setRelease(cells, hole, null);
    }
}
