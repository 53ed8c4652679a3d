package io.pinmx.rma;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.pinmx.rma.RmaScenarios.check;

/**
 * {@link RmaScenarios}' {@code ondemand}, on 4 ranks on the shared-memory tier with the user driver's files in a
 * directory of the job's own ({@code PINMX_SHM_DIR}): one-sided operations, reductions and barriers open no endpoint
 * file; then only ranks 0 and 1 exchange messages, and exactly two endpoint files exist. Rank 0's first message goes
 * to rank 1 while rank 1 waits in a barrier, not in a receive (rank 1 opens its endpoint because a sender wants it);
 * the rest are answers either way, by rank and from any rank, short and longer than the eager size.
 */
final class OnDemandMessagesScenario
{
    /** The user driver's endpoint files (pin-user's EndpointFile). */
    private static final String ENDPOINT_FILES = "pinmx-udp-*";
    private static final int TAG = 7;

    private final Rma rma;
    private final Path shmDirectory;

    OnDemandMessagesScenario(final Rma rma)
    {
        this.rma = rma;
        this.shmDirectory = Path.of(System.getenv("PINMX_SHM_DIR"));
    }

    void run()
    {
        check(4 == rma.size(), () -> "ondemand runs on 4 ranks, not " + rma.size());
        final RmaAllocation slices = rma.alloc(4096);
        rma.atomics().fetchAndAdd(slices, 0, 0, 1);
        final long[] sum = {rma.rank()};
        rma.messages().reduce(ReduceOp.SUM, sum);
        check(6 == sum[0], () -> "sum of ranks " + sum[0]);
        rma.barrier();
        checkEndpointFiles(0, "after one-sided operations, a reduction and barriers");
        rma.barrier();
        final RmaMessages messages = rma.messages();
        final int longBytes = 1 >= rma.rank() ? Math.toIntExact(2 * messages.eagerBytes() + 3) : 0;
        if (0 == rma.rank())
        {
            messages.send(TAG, MemorySegment.ofArray(new int[] {41}), 1);
            rma.barrier();
            final MemorySegment reply = MemorySegment.ofArray(new int[1]);
            check(4 == messages.receive(TAG, reply, 1) && 42 == reply.get(ValueLayout.JAVA_INT, 0),
                () -> "reply " + reply.get(ValueLayout.JAVA_INT, 0));
            messages.send(TAG, MemorySegment.ofArray(filled(longBytes)), 1);
            final MemorySegment back = MemorySegment.ofArray(new byte[longBytes]);
            final ReceivedMessage m = messages.receiveAny(TAG, back);
            check(new ReceivedMessage(1, longBytes).equals(m) && -1 == back.mismatch(MemorySegment.ofArray(
                filled(longBytes))), () -> "long message back " + m + ", or other bytes");
        }
        else if (1 == rma.rank())
        {
            rma.barrier();
            final MemorySegment first = MemorySegment.ofArray(new int[1]);
            final ReceivedMessage m = messages.receiveAny(TAG, first);
            check(new ReceivedMessage(0, 4).equals(m) && 41 == first.get(ValueLayout.JAVA_INT, 0),
                () -> "first message " + m + ": " + first.get(ValueLayout.JAVA_INT, 0));
            messages.send(TAG, MemorySegment.ofArray(new int[] {42}), 0);
            final MemorySegment big = MemorySegment.ofArray(new byte[longBytes]);
            check(longBytes == messages.receive(TAG, big, 0), () -> "long message length");
            messages.send(TAG, big, 0);
        }
        else
        {
            rma.barrier();
        }
        rma.barrier();
        checkEndpointFiles(2, "after ranks 0 and 1 alone exchanged messages");
        rma.barrier();
        rma.free(slices);
    }

    private void checkEndpointFiles(final int expected, final String when)
    {
        int found = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(shmDirectory, ENDPOINT_FILES))
        {
            for (final Path ignored : files)
            {
                found++;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final int endpoints = found;
        check(expected == endpoints, () -> "rank " + rma.rank() + " " + when + ": " + endpoints +
            " endpoint files in " + shmDirectory + ", expected " + expected);
    }

    private static byte[] filled(final int bytes)
    {
        final byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++)
        {
            b[i] = (byte)(i * 13 + 5);
        }
        return b;
    }
}
