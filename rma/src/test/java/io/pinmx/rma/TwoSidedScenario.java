package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.TreeSet;

import static io.pinmx.rma.RmaScenarios.check;
import static io.pinmx.rma.RmaScenarios.expect;

/**
 * {@link ArmciInterfaceScenarios}' {@code twosided} ({@code armci_msg_snd}, {@code armci_msg_rcv},
 * {@code armci_msg_rcvany}): every other rank sends rank 0 a short message (heap) and one of the most bytes a message
 * carries (a local buffer); rank 0 takes the short ones from any rank, learning each sender once, and the long ones
 * by name, byte-exact, then answers each. Rank 1's messages with other tags are taken out of send order by tag; one
 * longer than the buffer offered is refused, naming both sizes, and then received whole. Then the refusals: a message
 * to this rank or outside the job, one longer than a message carries, a null or read-only buffer.
 */
final class TwoSidedScenario
{
    private static final int TAG_SHORT = 11;
    private static final int TAG_LONG = -12;
    private static final int TAG_REPLY = 13;

    private final Rma rma;
    private final RmaMessages messages;

    TwoSidedScenario(final Rma rma)
    {
        this.rma = rma;
        this.messages = rma.messages();
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
        refusals();
        rma.barrier();
    }

    private void spoke()
    {
        final int me = rma.rank();
        messages.send(TAG_SHORT, shortMessage(me), 0);
        final MemorySegment big = rma.localMemory().allocate(messages.maxMessageBytes());
        fill(big, me);
        messages.send(TAG_LONG, big, 0);
        if (1 == me)
        {
            messages.send(2, MemorySegment.ofArray(new byte[] {2}), 0);
            messages.send(1, MemorySegment.ofArray(new byte[] {1}), 0);
            final MemorySegment sixtyFour = MemorySegment.ofArray(new byte[64]);
            fill(sixtyFour, 77);
            messages.send(3, sixtyFour, 0);
        }
        final MemorySegment reply = MemorySegment.ofArray(new byte[64]);
        final long got = messages.receive(TAG_REPLY, reply, 0);
        check(4 == got && me * 11 == reply.get(ValueLayout.JAVA_INT_UNALIGNED, 0),
            () -> "reply to rank " + me + ": " + got + " bytes, " + reply.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        rma.localMemory().free(big);
    }

    private void hub()
    {
        final int n = rma.size();
        final Set<Integer> senders = new TreeSet<>();
        for (int i = 1; i < n; i++)
        {
            final MemorySegment into = MemorySegment.ofArray(new byte[256]);
            final ReceivedMessage m = messages.receiveAny(TAG_SHORT, into);
            check(m.bytes() == 16 + 8L * m.rank() && -1 == into.asSlice(0, m.bytes()).mismatch(shortMessage(m.rank())),
                () -> "short message " + m + " read wrong");
            check(senders.add(m.rank()), () -> "rank " + m.rank() + " received twice");
        }
        check(n - 1 == senders.size() && !senders.contains(0), () -> "senders " + senders);
        final MemorySegment big = rma.localMemory().allocate(messages.maxMessageBytes());
        for (int r = 1; r < n; r++)
        {
            final long length = messages.receive(TAG_LONG, big, r);
            final MemorySegment want = MemorySegment.ofArray(new byte[(int)big.byteSize()]);
            fill(want, r);
            final int from = r;
            check(big.byteSize() == length && -1 == big.mismatch(want), () -> "long message from rank " + from + " read wrong");
        }
        rma.localMemory().free(big);
        final MemorySegment one = MemorySegment.ofArray(new byte[1]);
        check(1 == messages.receive(1, one, 1) && 1 == one.get(ValueLayout.JAVA_BYTE, 0), () -> "tag 1 before tag 2");
        check(1 == messages.receive(2, one, 1) && 2 == one.get(ValueLayout.JAVA_BYTE, 0), () -> "tag 2 after tag 1");
        expect(IllegalArgumentException.class, "message of 64 bytes from rank 1 (tag 3) does not fit the 16-byte buffer",
            () -> messages.receive(3, MemorySegment.ofArray(new byte[16]), 1));
        expect(IllegalArgumentException.class, "does not fit the 63-byte buffer",
            () -> messages.receiveAny(3, MemorySegment.ofArray(new byte[63])));
        final MemorySegment whole = rma.localMemory().allocate(64);
        final MemorySegment want = MemorySegment.ofArray(new byte[64]);
        fill(want, 77);
        final ReceivedMessage kept = messages.receiveAny(3, whole);
        check(new ReceivedMessage(1, 64).equals(kept) && -1 == whole.mismatch(want), () -> "a refused message " + kept);
        rma.localMemory().free(whole);
        for (int r = 1; r < n; r++)
        {
            messages.send(TAG_REPLY, MemorySegment.ofArray(new int[] {r * 11}), r);
        }
    }

    private void refusals()
    {
        final int me = rma.rank();
        final int n = rma.size();
        final MemorySegment b = MemorySegment.ofArray(new byte[8]);
        expect(IllegalArgumentException.class, "rank " + me + " is this rank", () -> messages.send(1, b, me));
        expect(IllegalArgumentException.class, "rank " + n, () -> messages.send(1, b, n));
        expect(IllegalArgumentException.class, "the buffer is null", () -> messages.send(1, null, (me + 1) % n));
        final long tooLong = messages.maxMessageBytes() + 1;
        expect(IllegalArgumentException.class, "message of " + tooLong + " bytes to rank " + (me + 1) % n +
            " is longer than the " + (tooLong - 1) + " bytes", () -> messages.send(1,
            MemorySegment.ofArray(new byte[(int)tooLong]), (me + 1) % n));
        expect(IllegalArgumentException.class, "is read-only",
            () -> messages.receive(1, b.asReadOnly(), (me + 1) % n));
        expect(IllegalArgumentException.class, "rank -1", () -> messages.receive(1, b, -1));
        expect(IllegalArgumentException.class, "rank " + me + " is this rank", () -> messages.receive(1, b, me));
    }

    private static MemorySegment shortMessage(final int rank)
    {
        final MemorySegment m = MemorySegment.ofArray(new byte[16 + 8 * rank]);
        fill(m, rank);
        return m;
    }

    private static void fill(final MemorySegment m, final int rank)
    {
        for (long i = 0; i < m.byteSize(); i++)
        {
            m.set(ValueLayout.JAVA_BYTE, i, (byte)(rank * 37 + i * 11 + 1));
        }
    }
}
