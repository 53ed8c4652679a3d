package io.pinmx.mx;

import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The user driver, recording per thread how often it polled the endpoint it opened and how many events those polls
 * delivered: which thread made progress, seen from the driver.
 */
final class PollRecordingDriver
{
    private final Map<Thread, AtomicLong> polls = new ConcurrentHashMap<>();
    private final Map<Thread, AtomicLong> delivered = new ConcurrentHashMap<>();
    private final PinDriver driver = new InterceptingDriver(new UserDriver(), (method, args, call) ->
    {
        final Object result = call.proceed();
        if ("poll".equals(method.getName()))
        {
            final Thread self = Thread.currentThread();
            polls.computeIfAbsent(self, t -> new AtomicLong()).incrementAndGet();
            delivered.computeIfAbsent(self, t -> new AtomicLong()).addAndGet((Integer)result);
        }
        return result;
    });

    PinDriver driver()
    {
        return driver;
    }

    long polls(final Thread thread)
    {
        return polls.getOrDefault(thread, new AtomicLong()).get();
    }

    long delivered(final Thread thread)
    {
        return delivered.getOrDefault(thread, new AtomicLong()).get();
    }

    /** @return the thread whose name starts so, among those that polled (the endpoint's progress thread). */
    Thread pollingThread(final String namePrefix)
    {
        return polls.keySet().stream().filter(t -> t.getName().startsWith(namePrefix)).findFirst().orElse(null);
    }
}
