package io.pinmx.job.example;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.job.ProgramArguments;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.pin.spi.Counter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Every rank sends a message to every other rank and receives one from each, checking every byte; then prints one
 * line for a script: the milliseconds from this process's start to its first message received, its resident
 * memory, and how many frames came through the user driver's same-host rings (0 over UDP). Run: {@code bin/pinmx-run -np 8 io.pinmx.job.example.AllPairs [BYTES]} (default 1024 bytes a message).
 */
public final class AllPairs
{
    /** The line each rank prints starts with this; {@code job/scripts/many-ranks.sh} gathers them. */
    public static final String REPORT_PREFIX = "allpairs";
    private static final long MATCH_INFO = 0x41_4c_4cL;
    private static final int DEFAULT_BYTES = 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.job.example.AllPairs [BYTES]   (N >= 2)
          Every rank sends BYTES (default 1024) to every other rank and checks what it receives; each prints one
          line: allpairs rank R of N received ..., first-message-ms, rss-kib, hwm-kib, shm-frames-received.
          Reads the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed, 2 a bad BYTES or fewer than 2 ranks
        """;

    private AllPairs()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        final int bytes = args.length > 0 ? messageBytes(args[0]) : DEFAULT_BYTES;
        if (bytes <= 0)
        {
            ProgramArguments.refuse("AllPairs", "BYTES '" + args[0] + "': expected a positive number of bytes");
        }
        try (Job job = Job.join(System.getenv());
            JobEndpoint ranks = JobEndpoint.open(job, System.getenv());
            Arena arena = Arena.ofShared())
        {
            final int size = job.size();
            final int rank = job.rank();
            if (size < 2)
            {
                System.err.println("AllPairs: needs at least 2 ranks (bin/pinmx-run -np 2 " + AllPairs.class.getName() + ")");
                System.exit(2);
            }
            final Endpoint endpoint = ranks.endpoint();
            final Request[] receives = new Request[size - 1];
            final MemorySegment[] inboxes = new MemorySegment[size - 1];
            for (int k = 1; k < size; k++)
            {
                final int from = (rank + size - k) % size;
                inboxes[k - 1] = arena.allocate(bytes);
                receives[k - 1] = endpoint.irecv(ranks.partner(from).id(), MATCH_INFO, -1L, inboxes[k - 1]);
            }
            final Request[] sends = new Request[size - 1];
            for (int k = 1; k < size; k++)
            {
                final int to = (rank + k) % size;
                final MemorySegment outbox = arena.allocate(bytes);
                fill(outbox, rank, to);
                sends[k - 1] = endpoint.isend(ranks.partner(to), MATCH_INFO, outbox);
            }
            if (endpoint.waitAny(receives, receives.length, TIMEOUT) < 0)
            {
                throw new IllegalStateException("rank " + rank + ": no message from any rank within " + TIMEOUT);
            }
            final long firstMessageMs = Duration.between(processStart(), Instant.now()).toMillis();
            for (int k = 1; k < size; k++)
            {
                final int from = (rank + size - k) % size;
                final Status status = receives[k - 1].awaitOrThrow(TIMEOUT);
                if (status.messageLength() != bytes)
                {
                    throw new IllegalStateException("rank " + rank + ": " + status.messageLength() + " bytes from rank " +
                        from + ", expected " + bytes);
                }
                check(inboxes[k - 1], from, rank);
                receives[k - 1].release();
                sends[k - 1].awaitOrThrow(TIMEOUT);
                sends[k - 1].release();
            }
            System.out.println(REPORT_PREFIX + " rank " + rank + " of " + size + " received " + (size - 1) + " x " +
                bytes + " B checked, first-message-ms " + firstMessageMs + ", rss-kib " + statusKib("VmRSS") +
                ", hwm-kib " + statusKib("VmHWM") +
                ", shm-frames-received " + endpoint.counters().driver().get(Counter.SHM_FRAMES_RECEIVED));

            // Nobody closes its endpoint while a partner may still wait for an ack from it.
            job.barrier();
        }
    }

    /** The byte at {@code i} of the message from {@code from} to {@code to}: differs per pair and per position. */
    static byte pattern(final int from, final int to, final long i)
    {
        return (byte)(from * 31 + to * 7 + i * 13 + (i >> 8));
    }

    private static void fill(final MemorySegment message, final int from, final int to)
    {
        for (long i = 0; i < message.byteSize(); i++)
        {
            message.set(ValueLayout.JAVA_BYTE, i, pattern(from, to, i));
        }
    }

    private static void check(final MemorySegment message, final int from, final int to)
    {
        for (long i = 0; i < message.byteSize(); i++)
        {
            final byte got = message.get(ValueLayout.JAVA_BYTE, i);
            if (got != pattern(from, to, i))
            {
                throw new IllegalStateException("rank " + to + ": byte " + i + " from rank " + from + " is " + got +
                    ", expected " + pattern(from, to, i));
            }
        }
    }

    /** @return the number, or 0 for anything that is not a positive one. */
    private static int messageBytes(final String arg)
    {
        try
        {
            return Math.max(0, Integer.parseInt(arg));
        }
        catch (final NumberFormatException notANumber)
        {
            return 0;
        }
    }

    private static Instant processStart()
    {
        return ProcessHandle.current().info().startInstant()
            .orElseThrow(() -> new IllegalStateException("AllPairs: this process's start time is not known"));
    }

    /** A {@code /proc/self/status} field in KiB (VmRSS, VmHWM). */
    private static long statusKib(final String field)
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith(field + ":"))
                {
                    return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        throw new IllegalStateException("AllPairs: no " + field + " in /proc/self/status");
    }
}
