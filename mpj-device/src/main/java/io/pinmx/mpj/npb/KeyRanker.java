package io.pinmx.mpj.npb;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;

/**
 * One rank's part of NPB IS: its slice of the keys, and NPB's ranking step. Each iteration counts the local keys
 * per bucket, sums the counts over all ranks with one allreduce (which also carries the five test keys, hidden in
 * the slots after the buckets by the ranks that hold them), gives each rank a run of whole buckets holding about
 * an equal share of keys, exchanges the keys by alltoall (counts) and alltoallv (keys), and ranks the keys it
 * received by counting. Keeps what the full verification needs from the last iteration.
 * <p>
 * Owns every array of the rank; one thread.
 */
final class KeyRanker
{
    /** NPB's iteration count. */
    static final int ITERATIONS = 10;
    private static final int VERIFY_TAG = 1000;

    private final IsClass cls;
    private final Intracomm comm;
    private final int rank;
    private final int ranks;
    private final int localKeys;
    private final int shift;
    private final int buckets;

    private final int[] keys;
    private final int[] bucketKeys;
    private final int[] bucketCounts;
    private final int[] bucketTotals;
    private final int[] bucketStart;
    private final int[] firstBucket;
    private final int[] lastBucket;
    private final int[] sendCounts;
    private final int[] sendOffsets;
    private final int[] receiveCounts;
    private final int[] receiveOffsets;
    private final int[] keyCounts;
    private final StageTimers timers;
    private int[] received;

    private int receivedKeys;
    private int minKey;
    private int maxKey;
    private int passed;

    KeyRanker(final IsClass cls, final Intracomm comm, final StageTimers timers)
    {
        this.timers = timers;
        this.cls = cls;
        this.comm = comm;
        this.rank = comm.Rank();
        this.ranks = comm.Size();
        if (Integer.bitCount(ranks) != 1 || ranks > cls.buckets())
        {
            throw new IllegalArgumentException("NPB IS needs a power-of-two number of ranks up to " + cls.buckets() +
                ", not " + ranks);
        }
        localKeys = cls.totalKeys() / ranks;
        shift = cls.maxKeyLog2 - cls.bucketsLog2;
        buckets = cls.buckets();
        keys = new int[localKeys];
        bucketKeys = new int[localKeys];
        bucketCounts = new int[buckets + IsClass.TEST_KEYS];
        bucketTotals = new int[buckets + IsClass.TEST_KEYS];
        bucketStart = new int[buckets];
        firstBucket = new int[ranks];
        lastBucket = new int[ranks];
        sendCounts = new int[ranks];
        sendOffsets = new int[ranks];
        receiveCounts = new int[ranks];
        receiveOffsets = new int[ranks];
        keyCounts = new int[cls.maxKey()];
        // NPB's buffer size for fewer than 256 ranks: buckets are whole, so a rank may get more than its share.
        received = new int[localKeys * 3 / 2];
    }

    /** Fills this rank's slice with NPB's keys: each the sum of four draws times maxKey/4. */
    void generateKeys()
    {
        final NpbRandom random = new NpbRandom(NpbRandom.seedOfRank(rank, ranks, 4L * cls.totalKeys()));
        final int quarter = cls.maxKey() / 4;
        for (int i = 0; i < localKeys; i++)
        {
            double x = random.next(NpbRandom.MULTIPLIER);
            x += random.next(NpbRandom.MULTIPLIER);
            x += random.next(NpbRandom.MULTIPLIER);
            x += random.next(NpbRandom.MULTIPLIER);
            keys[i] = (int)(quarter * x);
        }
    }

    /** Test keys that had the rank NPB expects, on this rank, since the last {@link #resetPassed()}. */
    int passed()
    {
        return passed;
    }

    void resetPassed()
    {
        passed = 0;
    }

    /** One NPB ranking iteration (1-based); failed test keys are reported on stdout as NPB does. */
    void rank(final int iteration)
    {
        if (0 == rank)
        {
            keys[iteration] = iteration;
            keys[iteration + ITERATIONS] = cls.maxKey() - iteration;
        }
        sortIntoBuckets();
        timers.mark(StageTimers.Stage.COMPUTE);
        comm.Allreduce(bucketCounts, 0, bucketTotals, 0, bucketCounts.length, MPI.INT, MPI.SUM);
        timers.mark(StageTimers.Stage.ALLREDUCE);
        assignBuckets();
        timers.mark(StageTimers.Stage.COMPUTE);
        comm.Alltoall(sendCounts, 0, 1, MPI.INT, receiveCounts, 0, 1, MPI.INT);
        timers.mark(StageTimers.Stage.ALLTOALL);
        receivedKeys = 0;
        for (int r = 0; r < ranks; r++)
        {
            receiveOffsets[r] = receivedKeys;
            receivedKeys += receiveCounts[r];
        }
        if (receivedKeys > received.length)
        {
            received = new int[receivedKeys];
        }
        comm.Alltoallv(bucketKeys, 0, sendCounts, sendOffsets, MPI.INT,
            received, 0, receiveCounts, receiveOffsets, MPI.INT);
        timers.mark(StageTimers.Stage.ALLTOALLV);
        countKeys();
        verifyTestKeys(iteration);
        timers.mark(StageTimers.Stage.COMPUTE);
    }

    private void sortIntoBuckets()
    {
        Arrays.fill(bucketCounts, 0);
        for (int i = 0; i < IsClass.TEST_KEYS; i++)
        {
            final int index = cls.testIndex(i);
            if (index / localKeys == rank)
            {
                bucketCounts[buckets + i] = keys[index % localKeys];
            }
        }
        for (int i = 0; i < localKeys; i++)
        {
            bucketCounts[keys[i] >> shift]++;
        }
        bucketStart[0] = 0;
        for (int b = 1; b < buckets; b++)
        {
            bucketStart[b] = bucketStart[b - 1] + bucketCounts[b - 1];
        }
        for (int i = 0; i < localKeys; i++)
        {
            final int key = keys[i];
            bucketKeys[bucketStart[key >> shift]++] = key;
        }
    }

    /**
     * NPB's redistribution: walking the buckets, rank j takes buckets until the running total reaches (j+1) shares
     * of keys; ranks left without buckets get none.
     */
    private void assignBuckets()
    {
        long total = 0;
        int local = 0;
        int r = 0;
        int sent = 0;
        Arrays.fill(sendCounts, 0);
        Arrays.fill(firstBucket, 1);
        Arrays.fill(lastBucket, 0);
        firstBucket[0] = 0;
        for (int b = 0; b < buckets && r < ranks; b++)
        {
            total += bucketTotals[b];
            local += bucketCounts[b];
            if (total >= (long)(r + 1) * localKeys)
            {
                sendCounts[r] = local;
                sendOffsets[r] = sent;
                sent += local;
                if (r > 0)
                {
                    firstBucket[r] = lastBucket[r - 1] + 1;
                }
                lastBucket[r++] = b;
                local = 0;
            }
        }
        for (; r < ranks; r++)
        {
            sendOffsets[r] = sent;
        }
    }

    /** Counts each received key, then turns the counts into ranks within this rank's key range. */
    private void countKeys()
    {
        minKey = firstBucket[rank] << shift;
        maxKey = ((lastBucket[rank] + 1) << shift) - 1;
        final int span = maxKey - minKey + 1;
        Arrays.fill(keyCounts, 0, Math.max(0, span), 0);
        for (int i = 0; i < receivedKeys; i++)
        {
            keyCounts[received[i] - minKey]++;
        }
        for (int k = 1; k < span; k++)
        {
            keyCounts[k] += keyCounts[k - 1];
        }
    }

    private void verifyTestKeys(final int iteration)
    {
        long lesser = 0;
        for (int r = 0; r < rank; r++)
        {
            for (int b = firstBucket[r]; b <= lastBucket[r]; b++)
            {
                lesser += bucketTotals[b];
            }
        }
        for (int i = 0; i < IsClass.TEST_KEYS; i++)
        {
            final int key = bucketTotals[buckets + i];
            if (minKey <= key && key <= maxKey)
            {
                final long keyRank = lesser + (key > minKey ? keyCounts[key - 1 - minKey] : 0);
                if (keyRank == cls.expectedRank(i, iteration))
                {
                    passed++;
                }
                else
                {
                    System.out.println("Failed partial verification: iteration " + iteration + ", processor " +
                        rank + ", test key " + i + ", key rank " + keyRank);
                }
            }
        }
    }

    /**
     * NPB's full verification of the last iteration: places every received key at its rank, checks the local
     * keys are in order and that the previous rank's largest key is not above this rank's smallest. Counts one
     * pass when both hold.
     */
    void fullVerify()
    {
        final int[] sorted = new int[receivedKeys];
        for (int i = 0; i < receivedKeys; i++)
        {
            final int key = received[i];
            sorted[--keyCounts[key - minKey]] = key;
        }
        final int[] previousLargest = new int[1];
        final mpi.Request fromLeft = rank > 0 ?
            comm.Irecv(previousLargest, 0, 1, MPI.INT, rank - 1, VERIFY_TAG) : null;
        if (rank < ranks - 1)
        {
            final int[] largest = {0 == receivedKeys ? 0 : sorted[receivedKeys - 1]};
            comm.Send(largest, 0, 1, MPI.INT, rank + 1, VERIFY_TAG);
        }
        long outOfOrder = 0;
        if (null != fromLeft)
        {
            fromLeft.Wait();
            if (receivedKeys > 0 && previousLargest[0] > sorted[0])
            {
                outOfOrder++;
            }
        }
        for (int i = 1; i < receivedKeys; i++)
        {
            if (sorted[i - 1] > sorted[i])
            {
                outOfOrder++;
            }
        }
        if (0 == outOfOrder)
        {
            passed++;
        }
        else
        {
            System.out.println("Processor " + rank + ":  Full_verify: number of keys out of sort: " + outOfOrder);
        }
    }
}
