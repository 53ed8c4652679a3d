package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.TreeSet;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code twosided} ({@code armci_msg_snd}, {@code armci_msg_rcv},
 * {@code armci_msg_rcvany}), rank 0 the hub: every other rank sends it a short heap message, which it takes from any
 * rank and learns each sender once, then a native one longer than the eager size, which it takes by rank into a
 * larger buffer. Rank 1 also sends two tags that the hub takes out of send order, a message from a confined arena
 * that the hub first offers too small a buffer (refused naming both sizes, left queued, then received whole), and a
 * heap one longer than the eager size. The hub answers each rank with a short and a long heap message. Then every
 * rank starts non-blocking sends to the next rank (three on an aggregate handle, one implicit) and receives the
 * previous rank's in order. Then every rank's refusals: a peer outside the job or this rank, a null or read-only
 * buffer, a non-blocking send from memory confined to this thread.
 */
final class TwoSidedScenario
{
    private static final int TAG_SHORT = 11;
    private static final int TAG_LONG = -12;
    private static final int TAG_REPLY = 13;
    private static final int TAG_LONG_REPLY = 14;
    private static final int TAG_FIRST = 1;
    private static final int TAG_SECOND = 2;
    private static final int TAG_KEPT = 3;
    private static final int TAG_HEAP = 4;
    private static final int TAG_RING = 5;
    private static final int RING_SENDS = 4;
    private static final int KEPT_BYTES = 64;

    private final Rma rma;
    private final RmaMessages messages;
    /** Past the eager size by more than a pull's block, so that each long message goes by rendezvous. */
    private final int longBytes;

    TwoSidedScenario(final Rma rma)
    {
        this.rma = rma;
        this.messages = rma.messages();
        this.longBytes = Math.toIntExact(3 * messages.eagerBytes() + 5);
    }

    void run()
    {
        if (0 == rma.rank())
        {
            hub();
        }
        else
        {
            spoke();
        }
        nonBlockingRing();
        refusals();
        rma.barrier();
    }

    private void spoke()
    {
        final int me = rma.rank();
        messages.send(TAG_SHORT, filled(new byte[16 + 8 * me], me), 0);
        final MemorySegment big = rma.localMemory().allocate(longBytes + me);
        big.copyFrom(filled(new byte[longBytes + me], me));
        messages.send(TAG_LONG, big, 0);
        rma.localMemory().free(big);
        if (1 == me)
        {
            messages.send(TAG_SECOND, MemorySegment.ofArray(new byte[] {TAG_SECOND}), 0);
            messages.send(TAG_FIRST, MemorySegment.ofArray(new byte[] {TAG_FIRST}), 0);
            try (Arena confined = Arena.ofConfined())
            {
                messages.send(TAG_KEPT, confined.allocate(KEPT_BYTES).copyFrom(filled(new byte[KEPT_BYTES], 77)), 0);
            }
            messages.send(TAG_HEAP, filled(new byte[2 * longBytes], 99), 0);
        }
        final MemorySegment reply = MemorySegment.ofArray(new byte[64]);
        final long got = messages.receive(TAG_REPLY, reply, 0);
        check(4 == got && me * 11 == reply.get(ValueLayout.JAVA_INT_UNALIGNED, 0),
            () -> "reply to rank " + me + ": " + got + " bytes, " + reply.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        final MemorySegment longReply = MemorySegment.ofArray(new byte[longBytes + 100]);
        final long gotLong = messages.receive(TAG_LONG_REPLY, longReply, 0);
        check(longBytes + me == gotLong && -1 == longReply.asSlice(0, gotLong).mismatch(filled(new byte[longBytes + me],
            -me)), () -> "long reply to rank " + me + ": " + gotLong + " bytes, or other bytes");
    }

    private void hub()
    {
        final int n = rma.size();
        final Set<Integer> senders = new TreeSet<>();
        for (int i = 1; i < n; i++)
        {
            final MemorySegment into = MemorySegment.ofArray(new byte[256]);
            final ReceivedMessage m = messages.receiveAny(TAG_SHORT, into);
            check(m.bytes() == 16 + 8L * m.rank() &&
                -1 == into.asSlice(0, m.bytes()).mismatch(filled(new byte[(int)m.bytes()], m.rank())),
                () -> "short message " + m + " read wrong");
            check(senders.add(m.rank()), () -> "rank " + m.rank() + " received twice");
        }
        check(n - 1 == senders.size() && !senders.contains(0), () -> "senders " + senders);
        final MemorySegment big = rma.localMemory().allocate(longBytes + n + 100);
        for (int r = n - 1; r >= 1; r--)
        {
            final long length = messages.receive(TAG_LONG, big, r);
            final int from = r;
            check(longBytes + r == length && -1 == big.asSlice(0, length).mismatch(filled(new byte[longBytes + r], r)),
                () -> "long message from rank " + from + ": " + length + " bytes, or other bytes");
        }
        rma.localMemory().free(big);
        final MemorySegment one = MemorySegment.ofArray(new byte[1]);
        check(1 == messages.receive(TAG_FIRST, one, 1) && TAG_FIRST == one.get(ValueLayout.JAVA_BYTE, 0),
            () -> "tag 1 taken before tag 2");
        check(1 == messages.receive(TAG_SECOND, one, 1) && TAG_SECOND == one.get(ValueLayout.JAVA_BYTE, 0),
            () -> "tag 2 taken after tag 1");
        final MemorySegment small = MemorySegment.ofArray(new byte[KEPT_BYTES - 1]);
        expect(IllegalArgumentException.class, "message of 64 bytes from rank 1 (tag 3) does not fit the 63-byte buffer",
            () -> messages.receive(TAG_KEPT, small, 1));
        expect(IllegalArgumentException.class, "does not fit the 63-byte buffer",
            () -> messages.receiveAny(TAG_KEPT, small));
        check(-1 == small.mismatch(MemorySegment.ofArray(new byte[KEPT_BYTES - 1])), () -> "a refused receive wrote");
        final MemorySegment whole = rma.localMemory().allocate(KEPT_BYTES);
        final ReceivedMessage kept = messages.receiveAny(TAG_KEPT, whole);
        check(new ReceivedMessage(1, KEPT_BYTES).equals(kept) && -1 == whole.mismatch(filled(new byte[KEPT_BYTES], 77)),
            () -> "the refused message, then " + kept);
        rma.localMemory().free(whole);
        final MemorySegment heap = MemorySegment.ofArray(new byte[2 * longBytes]);
        check(2L * longBytes == messages.receive(TAG_HEAP, heap, 1) && -1 == heap.mismatch(filled(new byte[2 * longBytes],
            99)), () -> "a long message into heap memory read wrong");
        for (int r = 1; r < n; r++)
        {
            messages.send(TAG_REPLY, MemorySegment.ofArray(new int[] {r * 11}), r);
            messages.send(TAG_LONG_REPLY, filled(new byte[longBytes + r], -r), r);
        }
    }

    private void nonBlockingRing()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final int next = (me + 1) % n;
        final int prev = (me + n - 1) % n;
        final MemorySegment out = Arena.ofAuto().allocate(RING_SENDS * Long.BYTES, Long.BYTES);
        for (int k = 0; k < RING_SENDS; k++)
        {
            out.set(ValueLayout.JAVA_LONG, (long)k * Long.BYTES, ringWord(me, k));
        }
        final RmaHandle sends = rma.aggregateHandle();
        for (int k = 0; k < RING_SENDS - 1; k++)
        {
            messages.nbSend(TAG_RING, out.asSlice((long)k * Long.BYTES, Long.BYTES), next, sends);
        }
        messages.nbSend(TAG_RING, out.asSlice((RING_SENDS - 1L) * Long.BYTES, Long.BYTES), next, null);
        final MemorySegment in = MemorySegment.ofArray(new long[1]);
        for (int k = 0; k < RING_SENDS; k++)
        {
            final long bytes = messages.receive(TAG_RING, in, prev);
            final long word = in.get(ValueLayout.JAVA_LONG, 0);
            final int at = k;
            check(Long.BYTES == bytes && ringWord(prev, k) == word, () -> "non-blocking send " + at + " from rank " +
                prev + ": " + bytes + " bytes holding " + word + ", not " + ringWord(prev, at));
        }
        sends.await();
        rma.waitAll();
        check(sends.test(), () -> "an awaited aggregate handle of sends still tests not done");
    }

    private static long ringWord(final int rank, final int k)
    {
        return 1000L * rank + k;
    }

    private void refusals()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final int peer = (me + 1) % n;
        final MemorySegment b = MemorySegment.ofArray(new byte[8]);
        expect(IllegalArgumentException.class, "message destination rank " + me + " is this rank",
            () -> messages.send(1, b, me));
        expect(IllegalArgumentException.class, "message destination rank " + n + " is not a rank of this job",
            () -> messages.send(1, b, n));
        expect(IllegalArgumentException.class, "message destination rank -1 is not a rank of this job",
            () -> messages.send(1, b, -1));
        expect(IllegalArgumentException.class, "message destination rank " + me + " is this rank",
            () -> messages.nbSend(1, b, me, null));
        expect(IllegalArgumentException.class, "message to rank " + peer + ": the buffer is null",
            () -> messages.nbSend(1, null, peer, null));
        try (Arena confined = Arena.ofConfined())
        {
            final MemorySegment mine = confined.allocate(8);
            expect(IllegalArgumentException.class, "non-blocking message to rank " + peer + ": the buffer",
                () -> messages.nbSend(1, mine, peer, null));
        }
        expect(IllegalArgumentException.class, "message to rank " + peer + ": the buffer is null",
            () -> messages.send(1, null, peer));
        expect(IllegalArgumentException.class, "message from rank " + peer + ": the buffer",
            () -> messages.receive(1, b.asReadOnly(), peer));
        expect(IllegalArgumentException.class, "message from any rank: the buffer is null",
            () -> messages.receiveAny(1, null));
        expect(IllegalArgumentException.class, "message source rank -1 is not a rank of this job",
            () -> messages.receive(1, b, -1));
        expect(IllegalArgumentException.class, "message source rank " + n + " is not a rank of this job",
            () -> messages.receive(1, b, n));
        expect(IllegalArgumentException.class, "message source rank " + me + " is this rank",
            () -> messages.receive(1, b, me));
    }

    /** @return the bytes as a heap segment, each a function of its index and the seed. */
    private static MemorySegment filled(final byte[] bytes, final int seed)
    {
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(seed * 37 + i * 11 + 1);
        }
        return MemorySegment.ofArray(bytes);
    }
}
