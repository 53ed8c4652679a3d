package io.pinmx.pin.node;

import org.junit.jupiter.api.AfterEach;

class InMemoryPeerTableTest extends PeerTableContract
{
    private final InMemoryPeerTable table = new InMemoryPeerTable();

    @Override
    PeerTable table()
    {
        return table;
    }

    @AfterEach
    void close()
    {
        table.close();
    }
}
