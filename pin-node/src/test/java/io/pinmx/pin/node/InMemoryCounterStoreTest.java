package io.pinmx.pin.node;

import org.junit.jupiter.api.AfterEach;

class InMemoryCounterStoreTest extends CounterStoreContract
{
    private final InMemoryCounterStore store = new InMemoryCounterStore();

    @Override
    CounterStore store()
    {
        return store;
    }

    @AfterEach
    void close()
    {
        store.close();
    }
}
