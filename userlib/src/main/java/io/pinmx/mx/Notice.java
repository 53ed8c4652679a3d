package io.pinmx.mx;

import io.pinmx.pin.wire.NotifyStatus;

/**
 * A NOTIFY owed to a rendezvous sender, kept apart from the receive request so the request
 * can complete and be reused while the NOTIFY still waits for its ack. Pooled.
 */
final class Notice
{
    Partner partner;
    int sendHandle;
    NotifyStatus status;
    long bytesPulled;
}
