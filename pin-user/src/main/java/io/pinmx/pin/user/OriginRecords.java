package io.pinmx.pin.user;

import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * What the target side remembers per origin endpoint (socket address and session) that writes into this endpoint's
 * exposed regions: the put mark (puts numbered below it have ended, their late frames are dropped) and the answers
 * of the last {@link #ATOMIC_WINDOW} atomic requests (a request seen again is answered from here, not applied
 * again; one older than the window is dropped). {@link #ORIGINS} entries, the least recently heard reused. Agent
 * only.
 */
final class OriginRecords
{
    /** Origin endpoints remembered at once. */
    static final int ORIGINS = 64;
    /** Atomic answers remembered per origin. */
    static final int ATOMIC_WINDOW = 256;

    /** One origin endpoint's record. */
    static final class Origin
    {
        private InetSocketAddress source;
        private int session;
        private long lastHeard;
        private boolean hasPutMark;
        private int putMark;
        private boolean hasRequests;
        private int highestRequest;
        private final int[] requestSeqs = new int[ATOMIC_WINDOW];
        private final long[] answers = new long[ATOMIC_WINDOW];
        private final boolean[] answered = new boolean[ATOMIC_WINDOW];

        private void reset(final InetSocketAddress source, final int session)
        {
            this.source = source;
            this.session = session;
            hasPutMark = false;
            hasRequests = false;
            Arrays.fill(answered, false);
        }

        /**
         * A PUT frame of put {@code putNumber}, built when the origin's oldest running put was {@code oldestRunning}.
         *
         * @return false if the put had ended already (drop the frame unwritten).
         */
        boolean admitPut(final int putNumber, final int oldestRunning)
        {
            if (hasPutMark && putNumber - putMark < 0)
            {
                return false;
            }
            if (!hasPutMark || oldestRunning - putMark > 0)
            {
                putMark = oldestRunning;
                hasPutMark = true;
            }
            return true;
        }

        /** @return whether the request was answered before ({@link #answer} has its answer). */
        boolean answered(final int requestSeq)
        {
            final int i = requestSeq & (ATOMIC_WINDOW - 1);
            return answered[i] && requestSeqs[i] == requestSeq;
        }

        /** @return whether the request is older than the remembered window: it cannot be told from a new one. */
        boolean tooOld(final int requestSeq)
        {
            return hasRequests && highestRequest - requestSeq >= ATOMIC_WINDOW;
        }

        long answer(final int requestSeq)
        {
            return answers[requestSeq & (ATOMIC_WINDOW - 1)];
        }

        void record(final int requestSeq, final long answer)
        {
            final int i = requestSeq & (ATOMIC_WINDOW - 1);
            requestSeqs[i] = requestSeq;
            answers[i] = answer;
            answered[i] = true;
            if (!hasRequests || requestSeq - highestRequest > 0)
            {
                highestRequest = requestSeq;
                hasRequests = true;
            }
        }
    }

    private final Origin[] origins = new Origin[ORIGINS];
    private int used;
    private long clock;

    /** The record of an origin endpoint, made (or the least recently heard one reused) when new. */
    Origin of(final InetSocketAddress source, final int session)
    {
        clock++;
        Origin oldest = null;
        for (int i = 0; i < used; i++)
        {
            final Origin origin = origins[i];
            if (origin.session == session && origin.source.equals(source))
            {
                origin.lastHeard = clock;
                return origin;
            }
            if (oldest == null || origin.lastHeard < oldest.lastHeard)
            {
                oldest = origin;
            }
        }
        final Origin origin = used < ORIGINS ? (origins[used++] = new Origin()) : oldest;
        origin.reset(source, session);
        origin.lastHeard = clock;
        return origin;
    }
}
