package io.pinmx.rma;

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

    /** The endpoint reads of one get; a staged get is unpacked into its pieces on the caller's thread. */
    static final class Pulls implements RmaHandle.Completion
    {
        private final int rank;
        private final Request[] reads;
        /** Dropped once settled: a get that {@link ReadsInFlight} still follows holds no memory. */
        private Pieces unpackInto;
        private MemorySegment staging;
        private boolean settled;
        private RmaException failure;

        Pulls(final int rank, final Request[] reads, final Pieces unpackInto, final MemorySegment staging)
        {
            this.rank = rank;
            this.reads = reads;
            this.unpackInto = unpackInto;
            this.staging = staging;
        }

        /** @return the endpoint reads this get started. */
        int reads()
        {
            return reads.length;
        }

        @Override
        public boolean isDone()
        {
            if (settled)
            {
                return true;
            }
            for (final Request r : reads)
            {
                if (!r.test())
                {
                    return false;
                }
            }
            return true;
        }

        /** Waits for every read (a dead target fails them within the peer timeout) and keeps the first failure. */
        void settle()
        {
            if (settled)
            {
                return;
            }
            settled = true;
            for (final Request r : reads)
            {
                r.await(DriverTier.UNTIL_DONE);
                if (RequestState.FAILED == r.state() && null == failure)
                {
                    failure = RankFailures.failure(rank, r);
                }
                r.release();
            }
            if (null == failure && null != unpackInto)
            {
                unpackInto.unpack(staging);
            }
            unpackInto = null;
            staging = null;
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
