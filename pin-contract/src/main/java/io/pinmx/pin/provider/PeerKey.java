package io.pinmx.pin.provider;

/**
 * A provider's key of one peer (address and port, MAC) as the {@link PeerRegistry} looks it up: its hash, whether an
 * entry has it, and how to build the entry for it. A caller on a hot path keeps one mutable key and sets it per
 * lookup, so finding a peer allocates nothing.
 *
 * @param <P> the provider's entry type.
 */
public interface PeerKey<P extends PeerEntry>
{
    int keyHash();

    boolean matches(P entry);

    /** @return a new entry with this key and the index given. */
    P create(int index);
}
