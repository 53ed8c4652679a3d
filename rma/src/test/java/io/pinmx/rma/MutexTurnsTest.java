package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MutexTurnsTest
{
    @Test
    void aTurnWordNamesItsWaiterOnlyForItsOwnTicket()
    {
        final long turn = MutexTurns.waiting(41, 5);
        assertEquals(5, MutexTurns.waiter(turn, 41));
        assertEquals(-1, MutexTurns.waiter(turn, 41 + 3), "a word left from an earlier ticket named a waiter");
        assertEquals(-1, MutexTurns.waiter(MutexTurns.granted(41), 41), "a granted word named a waiter");
        assertEquals(0, MutexTurns.waiter(MutexTurns.waiting(7, 0), 7));
    }

    @Test
    void aZeroedTurnWordGrantsTicketZeroAndNoOther()
    {
        assertEquals(0, MutexTurns.granted(0));
        assertTrue(MutexTurns.granted(3) != 0);
    }

    @Test
    void outstandingTicketsOfEveryMutexHaveTurnWordsOfTheirOwnBetweenTheWordsAndTheFlag()
    {
        final int ranks = 3;
        final int count = 4;
        final MutexTurns turns = new MutexTurns(ranks);
        final long slice = turns.sliceBytes(count);
        assertEquals(count, turns.count(slice));
        assertEquals(slice - Long.BYTES, MutexTurns.flagOffset(slice));
        final Set<Long> used = new HashSet<>();
        for (int mutex = 0; mutex < count; mutex++)
        {
            // any run of `ranks` consecutive tickets: the most outstanding at once
            for (long ticket = 1000; ticket < 1000 + ranks; ticket++)
            {
                final long at = turns.turnOffset(count, mutex, ticket);
                assertTrue(at >= count * RmaMutexes.MUTEX_BYTES && at + Long.BYTES <= MutexTurns.flagOffset(slice),
                    "turn word at " + at + " overlaps the ticket words or the flag");
                assertTrue(used.add(at), "two outstanding tickets share the turn word at " + at);
                assertEquals(turns.turnOffset(count, mutex, ticket + ranks), at);
            }
        }
    }

    @Test
    void aSliceOfNoMutexesStillHoldsItsFlag()
    {
        final MutexTurns turns = new MutexTurns(2);
        assertEquals(Long.BYTES, turns.sliceBytes(0));
        assertEquals(0, turns.count(Long.BYTES));
        assertTrue(turns.sliceBytes(-1) < 0, "a negative count must reach the allocation as a negative size");
    }

    @Test
    void tooManyRanksForTheTurnWordsAreRefusedNamingTheCount()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new MutexTurns(1 << MutexTurns.RANK_BITS));
        assertTrue(e.getMessage().contains(Integer.toString(1 << MutexTurns.RANK_BITS)), e.getMessage());
    }
}
