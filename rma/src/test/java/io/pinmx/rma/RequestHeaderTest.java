package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request header's per-request marks. The origin encodes every request into one reused scratch header, so a mark
 * left over from the request before would be read as this one's: a write marked done-on-copy whose origin in fact
 * waits for its ack would have that ack held by the server.
 */
class RequestHeaderTest
{
    private final MemorySegment buffer = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
    private final RequestHeader header = new RequestHeader().wrap(buffer);

    @Test
    void eachMarkIsReadBackAloneAndTheNextEncodeClearsThemAll()
    {
        header.encode(RmaOp.PUT, 1, 7, 3, 64, 6000, 0).inlineBytes(6000).doneOnCopy();
        assertTrue(header.isDoneOnCopy());
        assertFalse(header.answersApplied(), "done on copy does not ask for an answer");
        header.answerApplied().delivery(RequestHeader.DELIVERY_CHUNKS).releasedPart(4096);
        assertTrue(header.isDoneOnCopy() && header.answersApplied());
        assertEquals(RequestHeader.DELIVERY_CHUNKS, header.delivery());
        assertEquals(4096, header.releasedPart());
        assertEquals(6000, header.inlineBytes());

        header.encode(RmaOp.PUT, 1, 8, 3, 64, 6000, 0);
        assertFalse(header.isDoneOnCopy(), "a fresh request waits for its ack unless marked");
        assertFalse(header.answersApplied());
        assertEquals(RequestHeader.DELIVERY_PIECES, header.delivery());
        assertEquals(-1, header.releasedPart());
        assertEquals(0, header.inlineBytes());
        assertEquals(RmaOp.PUT, header.op());
    }
}
