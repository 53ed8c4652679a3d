package io.pinmx.pin.spi;

import java.lang.foreign.MemorySegment;

/**
 * A driver endpoint that passes every operation to a real one: tests extend it to watch or change one operation
 * (count declarations, hide liveness answers) and leave the rest to the provider.
 */
public class ForwardingDriverEndpoint implements DriverEndpoint
{
    private final DriverEndpoint endpoint;

    public ForwardingDriverEndpoint(final DriverEndpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    @Override
    public EndpointAddress address()
    {
        return endpoint.address();
    }

    @Override
    public DriverInfo info()
    {
        return endpoint.info();
    }

    @Override
    public int acquirePeer(final BoardAddress board)
    {
        return endpoint.acquirePeer(board);
    }

    @Override
    public void retainPeer(final int peerIndex)
    {
        endpoint.retainPeer(peerIndex);
    }

    @Override
    public void releasePeer(final int peerIndex)
    {
        endpoint.releasePeer(peerIndex);
    }

    @Override
    public BoardAddress peer(final int peerIndex)
    {
        return endpoint.peer(peerIndex);
    }

    @Override
    public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
    {
        return endpoint.declareRegion(segments, count, accessFlags);
    }

    @Override
    public void destroyRegion(final int regionId)
    {
        endpoint.destroyRegion(regionId);
    }

    @Override
    public boolean send(final int peerIndex, final MemorySegment header, final MemorySegment payload)
    {
        return endpoint.send(peerIndex, header, payload);
    }

    @Override
    public boolean sendRun(
        final int peerIndex, final MemorySegment[] headers, final MemorySegment[] payloads, final int frames)
    {
        return endpoint.sendRun(peerIndex, headers, payloads, frames);
    }

    @Override
    public void startPull(final PullSpec spec)
    {
        endpoint.startPull(spec);
    }

    @Override
    public RemoteRegion declareRemoteRegion(final MemorySegment[] segments, final int count)
    {
        return endpoint.declareRemoteRegion(segments, count);
    }

    @Override
    public void startPut(final PutSpec spec)
    {
        endpoint.startPut(spec);
    }

    @Override
    public void startAtomic(final AtomicSpec spec)
    {
        endpoint.startAtomic(spec);
    }

    @Override
    public PeerLiveness checkLiveness(
        final int peerIndex, final int endpointIndex, final int sessionId, final PeerLiveness out)
    {
        return endpoint.checkLiveness(peerIndex, endpointIndex, sessionId, out);
    }

    @Override
    public long receiveQueueWritten(final int peerIndex, final int endpointIndex, final int sessionId)
    {
        return endpoint.receiveQueueWritten(peerIndex, endpointIndex, sessionId);
    }

    @Override
    public long receiveQueueRead(final int peerIndex, final int endpointIndex, final int sessionId)
    {
        return endpoint.receiveQueueRead(peerIndex, endpointIndex, sessionId);
    }

    @Override
    public int poll(final EventHandler handler, final int limit)
    {
        return endpoint.poll(handler, limit);
    }

    @Override
    public boolean await(final long timeoutNs)
    {
        return endpoint.await(timeoutNs);
    }

    @Override
    public DriverCounters counters()
    {
        return endpoint.counters();
    }

    @Override
    public void close()
    {
        endpoint.close();
    }
}
