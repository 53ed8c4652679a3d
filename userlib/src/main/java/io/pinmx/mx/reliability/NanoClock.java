package io.pinmx.mx.reliability;

/**
 * Source of monotonic time for every protocol timer, injectable so resend and ack timing
 * is tested deterministically.
 */
@FunctionalInterface
public interface NanoClock
{
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
