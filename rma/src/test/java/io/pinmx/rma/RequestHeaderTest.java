package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request header's per-request marks. The origin encodes every request into one reused scratch header, so a mark
 * left over from the request before would be read as this one's: a write marked done-on-copy whose origin in fact
 * waits for its ack would have that ack held by the server. The target pieces the server decodes are the ones the
 * origin encoded, as a list or as a strided patch from the request's offset.
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

    @Test
    void targetPiecesAreTheEncodedListInOrder()
    {
        final MemorySegment withPieces = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES +
            3L * RequestHeader.PIECE_BYTES, 8);
        final RequestHeader h = new RequestHeader().wrap(withPieces);
        h.encode(RmaOp.PUT, 0, 1, 2, 0, 28, 0).pieces(new long[] {99, 512, 8, 4096}, new long[] {1, 16, 4, 8}, 1, 3);
        final long[][] pieces = h.targetPieces();
        assertArrayEquals(new long[] {512, 8, 4096}, pieces[0]);
        assertArrayEquals(new long[] {16, 4, 8}, pieces[1]);
    }

    @Test
    void targetPiecesOfAStridedPatchStartAtTheRequestOffsetAndFollowItsTargetStrides()
    {
        // 2 levels: 3 rows of 2 blocks of 8 bytes; target strides 16 (block) and 100 (row), source contiguous
        final StridedPatch patch = StridedPatch.of(new long[] {8, 2, 3}, new long[] {8, 16}, new long[] {16, 100}, 2);
        header.encode(RmaOp.ACC, 0, 1, 2, 1000, 48, 0).strided(patch);
        final long[][] pieces = header.targetPieces();
        assertArrayEquals(new long[] {1000, 1016, 1100, 1116, 1200, 1216}, pieces[0]);
        assertArrayEquals(new long[] {8, 8, 8, 8, 8, 8}, pieces[1]);

        header.encode(RmaOp.GET_PACKED, 0, 2, 2, 64, 0, 0).strided(StridedPatch.contiguous(0));
        final long[][] none = header.targetPieces();
        assertEquals(0, none[0].length, "a request of 0 bytes names no piece");
        assertEquals(0, none[1].length);
    }
}
