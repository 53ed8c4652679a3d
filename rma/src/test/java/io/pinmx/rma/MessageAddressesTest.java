package io.pinmx.rma;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The message-address slots between two ranks' views of the same memory (as two processes map one control file):
 * a waiting sender raises the wanted word and gets the address once published, the receiver's refusal, the rank's
 * exit, or a deadline, each naming the rank.
 */
class MessageAddressesTest
{
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] slots = {arena.allocate(MessageAddresses.SLOT_BYTES, 8),
        arena.allocate(MessageAddresses.SLOT_BYTES, 8)};
    private final MessageAddresses rank0 = new MessageAddresses(slots, 0, rank -> { });
    private final MessageAddresses rank1 = new MessageAddresses(slots, 1, rank -> { });

    @AfterEach
    void close()
    {
        arena.close();
    }

    @Test
    void aWaitingSenderGetsTheAddressOnceTheReceiverPublishesIt()
    {
        assertFalse(rank1.wanted());
        final CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> rank0.await(1,
            Duration.ofSeconds(60)));
        await().atMost(30, TimeUnit.SECONDS).until(rank1::wanted);
        assertFalse(waiting.isDone());
        rank1.publish("udp:127.0.0.1:4711 1");
        assertEquals("udp:127.0.0.1:4711 1", waiting.orTimeout(30, TimeUnit.SECONDS).join());
        assertFalse(rank0.wanted(), "rank 0's own slot is not wanted");
    }

    @Test
    void aRefusalReachesTheSenderWithItsReason()
    {
        rank1.refuse("rank 1 could not open its endpoint: no room in /dev/shm");
        final RmaException refused = assertThrows(RmaException.class, () -> rank0.await(1, Duration.ofSeconds(60)));
        assertEquals("rank 1 has no endpoint for two-sided messages: rank 1 could not open its endpoint: no room in " +
            "/dev/shm", refused.getMessage());
    }

    @Test
    void aSilentRankFailsTheWaitAtTheDeadlineNamingIt()
    {
        final RmaException late = assertThrows(RmaException.class, () -> rank0.await(1, Duration.ofMillis(200)));
        assertTrue(late.getMessage().startsWith("rank 1 published no endpoint address for two-sided messages within " +
            "200 ms"), late.getMessage());
        assertTrue(rank1.wanted());
    }

    @Test
    void anExitedRankFailsTheWaitNamingIt()
    {
        final MessageAddresses watching = new MessageAddresses(slots, 0, rank ->
        {
            throw new RmaException("rank " + rank + " (pid 1234 on this host) has exited");
        });
        final RmaException gone = assertThrows(RmaException.class, () -> watching.await(1, Duration.ofSeconds(60)));
        assertEquals("rank 1 (pid 1234 on this host) has exited", gone.getMessage());
    }

    @Test
    void aLongReasonIsCutToTheSlot()
    {
        rank1.refuse("x".repeat(5000));
        final RmaException refused = assertThrows(RmaException.class, () -> rank0.await(1, Duration.ofSeconds(60)));
        assertTrue(refused.getMessage().endsWith("x".repeat(100)) &&
            refused.getMessage().length() < MessageAddresses.SLOT_BYTES + 100, refused.getMessage());
    }
}
