package io.pinmx.rma;

import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * What a handle waits for of the driver tier's sends and direct reads.
 */
final class Completions
{
    private Completions()
    {
    }

    /**
     * Cancels and releases the receives from {@code from} on, which nothing will be waited for; one still filling is
     * left to the endpoint.
     */
    static void forget(final Request[] receives, final int from)
    {
        for (int c = from; c < receives.length; c++)
        {
            final Request r = receives[c];
            if (r.cancel() || r.test())
            {
                r.release();
            }
        }
    }

    /** Sends that complete a put or accumulate locally (the source may be reused). */
    static final class Sends implements RmaHandle.Completion
    {
        private final int rank;
        private final List<Request> sends;

        Sends(final int rank, final List<Request> sends)
        {
            this.rank = rank;
            this.sends = sends;
        }

        @Override
        public boolean isDone()
        {
            for (final Request r : sends)
            {
                if (!r.test())
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void await()
        {
            RmaException failed = null;
            for (final Request r : sends)
            {
                // A send to a dead target fails by itself within the peer timeout: nothing acknowledges it.
                r.await(DriverTier.UNTIL_DONE);
                if (RequestState.FAILED == r.state() && null == failed)
                {
                    failed = RankFailures.failure(rank, r);
                }
                r.release();
            }
            if (null != failed)
            {
                throw failed;
            }
        }
    }

    /** Starts a get the target's data server serves, as an epoch-bound fallback for a get's pulls. */
    @FunctionalInterface
    interface ServedGet
    {
        RmaHandle.Completion start();
    }

    /**
     * The endpoint reads of one get; a staged get is unpacked into its pieces on the caller's thread. Once the reads
     * are done, the target's epoch counter says whether an access epoch overlapped them ({@link EpochCounters}); if
     * one did, the get waits for the epoch's end and pulls again, and if the next epoch overlapped that too, the
     * target's data server serves it ({@link DriverReads#PULLS_BEFORE_SERVED}). A test never waits for that counter:
     * it starts reading it and is done once the reading has landed.
     */
    static final class Pulls implements RmaHandle.Completion
    {
        private final int rank;
        /** Dropped once settled, with the caller's pieces it names. */
        private PullPlan plan;
        private final EpochCounters epochs;
        private Request[] reads;
        /** The epoch counter's reading known when the reads started. */
        private long startedWith;
        /** When the reads were seen done ({@link EpochCounters#tick()}), 0 before. */
        private long seenDoneAt;
        /** Dropped once settled: a get that {@link ReadsInFlight} still follows holds no memory. */
        private Pieces unpackInto;
        private MemorySegment staging;
        private boolean settled;
        private RmaException failure;
        /** Dropped once settled: the same get served by the target's data server. */
        private ServedGet served;

        Pulls(final int rank, final PullPlan plan, final EpochCounters epochs, final Pieces unpackInto,
            final MemorySegment staging, final ServedGet served)
        {
            this.rank = rank;
            this.plan = plan;
            this.epochs = epochs;
            this.unpackInto = unpackInto;
            this.staging = staging;
            this.served = served;
            this.startedWith = epochs.known(rank);
            this.reads = plan.post();
        }

        /** @return the endpoint reads this get started. */
        int reads()
        {
            return reads.length;
        }

        /** @return whether the get is finished: its reads done and checked against the target's epochs. */
        boolean isSettled()
        {
            return settled;
        }

        @Override
        public boolean isDone()
        {
            return settled || readsDone() && epochs.readAfter(rank, seenDoneAt);
        }

        /** Before a wait: notes when the reads were seen done, so that gets seen done together share one reading. */
        @Override
        public void noteProgress()
        {
            if (!settled)
            {
                readsDone();
            }
        }

        private boolean readsDone()
        {
            for (final Request r : reads)
            {
                if (!r.test())
                {
                    return false;
                }
            }
            if (0 == seenDoneAt)
            {
                seenDoneAt = epochs.tick();
            }
            return true;
        }

        /**
         * Waits for every read (a dead target fails them within the peer timeout) and keeps the first failure; pulls
         * again while an access epoch of the target overlapped them.
         */
        void settle()
        {
            if (settled)
            {
                return;
            }
            settled = true;
            try
            {
                awaitReads();
                int pulls = 1;
                while (null == failure && !epochs.unchanged(rank, seenDoneAt, startedWith))
                {
                    if (DriverReads.PULLS_BEFORE_SERVED == pulls)
                    {
                        // straight into the caller's pieces: nothing to unpack from the staging buffer
                        served.start().await();
                        unpackInto = null;
                        break;
                    }
                    startedWith = epochs.awaitNoEpoch(rank);
                    seenDoneAt = 0;
                    reads = plan.post();
                    awaitReads();
                    pulls++;
                }
            }
            catch (final RmaException ex)
            {
                failure = ex;
            }
            catch (final MxException ex)
            {
                failure = RankFailures.refused(rank, ex);
            }
            if (null == failure && null != unpackInto)
            {
                unpackInto.unpack(staging);
            }
            unpackInto = null;
            staging = null;
            plan = null;
            served = null;
        }

        private void awaitReads()
        {
            for (final Request r : reads)
            {
                r.await(DriverTier.UNTIL_DONE);
                if (RequestState.FAILED == r.state() && null == failure)
                {
                    failure = RankFailures.failure(rank, r);
                }
                r.release();
            }
            if (0 == seenDoneAt)
            {
                seenDoneAt = epochs.tick();
            }
        }

        @Override
        public void await()
        {
            settle();
            if (null != failure)
            {
                throw failure;
            }
        }
    }
}
