package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.DriverCounters;

import java.lang.foreign.Arena;

/**
 * The parts of one user endpoint that its one-sided engines ({@link Puller}, {@link RemoteWriter}) share. The
 * endpoint owns each of them; an engine only uses them from the threads its own documentation names.
 *
 * @param arena         the endpoint's memory, closed with it.
 * @param options       the endpoint's options.
 * @param sender        the agent's frame sender.
 * @param peers         the endpoint's peers.
 * @param peerFiles     same-host peers' endpoint files.
 * @param regions       the endpoint's own region table.
 * @param counters      the endpoint's counters.
 * @param events        the endpoint's event ring.
 * @param endpointIndex the endpoint's index, carried in every frame.
 * @param sessionId     the endpoint's session, carried in every frame.
 */
record EndpointParts(
    Arena arena,
    UserDriverOptions options,
    AgentFrameSender sender,
    PeerRegistry<UdpPeer> peers,
    Puller.PeerFiles peerFiles,
    RegionTable regions,
    DriverCounters counters,
    EventRing events,
    int endpointIndex,
    int sessionId)
{
}
