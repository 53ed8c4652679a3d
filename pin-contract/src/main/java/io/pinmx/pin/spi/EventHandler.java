package io.pinmx.pin.spi;

/**
 * Receives events from {@link DriverEndpoint#poll(EventHandler, int)}.
 */
@FunctionalInterface
public interface EventHandler
{
    /**
     * @param event flyweight valid only during this call; copy out what must outlive it.
     */
    void onEvent(DriverEvent event);
}
