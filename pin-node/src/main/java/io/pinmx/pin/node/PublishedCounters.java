package io.pinmx.pin.node;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import java.util.Arrays;

/**
 * A snapshot of one endpoint's counters as published to the node-wide store.
 *
 * @param endpoint               endpoint name, e.g. {@code udp:10.0.0.1:40000/3}.
 * @param pid                    publishing process.
 * @param publishedAtEpochMillis when the snapshot was taken.
 * @param values                 counter values indexed by {@link Counter#ordinal()}.
 */
public record PublishedCounters(String endpoint, long pid, long publishedAtEpochMillis, long[] values)
{
    private static final Counter[] COUNTERS = Counter.values();

    /**
     * @throws IllegalArgumentException for a blank endpoint or a value array of the wrong size.
     */
    public PublishedCounters
    {
        if (null == endpoint || endpoint.isBlank() || endpoint.indexOf(';') >= 0)
        {
            throw new IllegalArgumentException("published counters: bad endpoint name '" + endpoint + "'");
        }
        if (values.length != COUNTERS.length)
        {
            throw new IllegalArgumentException("published counters of " + endpoint + ": " + values.length +
                " values, expected " + COUNTERS.length);
        }
        values = values.clone();
    }

    /**
     * @param endpoint endpoint name.
     * @param counters live counters to snapshot.
     * @return a snapshot stamped with this process and the current time.
     */
    public static PublishedCounters of(final String endpoint, final DriverCounters counters)
    {
        return new PublishedCounters(endpoint, ProcessHandle.current().pid(), System.currentTimeMillis(),
            counters.snapshot());
    }

    /**
     * @param counter a counter.
     * @return its value in the snapshot.
     */
    public long get(final Counter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * @return true when the publishing process still runs on this host.
     */
    public boolean publisherAlive()
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * @return stored text: {@code pid=P;at=T;NAME=V;...} with the non-zero counters by name, so
     * files written by a build with other counters still read.
     */
    String encode()
    {
        final StringBuilder text = new StringBuilder().append("pid=").append(pid).append(";at=").append(publishedAtEpochMillis);
        for (final Counter counter : COUNTERS)
        {
            final long value = values[counter.ordinal()];
            if (value != 0)
            {
                text.append(';').append(counter.name()).append('=').append(value);
            }
        }
        return text.toString();
    }

    /**
     * @param endpoint endpoint name.
     * @param text     stored text from {@link #encode()}; unknown counter names are skipped.
     * @return the snapshot.
     * @throws IllegalArgumentException naming the endpoint and the bad field.
     */
    static PublishedCounters decode(final String endpoint, final String text)
    {
        final long[] values = new long[COUNTERS.length];
        long pid = -1;
        long at = -1;
        for (final String field : text.split(";"))
        {
            final int equals = field.indexOf('=');
            if (equals <= 0)
            {
                throw new IllegalArgumentException("published counters of " + endpoint + ": bad field '" + field + "'");
            }
            final String name = field.substring(0, equals);
            final long value;
            try
            {
                value = Long.parseLong(field.substring(equals + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("published counters of " + endpoint + ": bad value in '" + field + "'", ex);
            }
            switch (name)
            {
                case "pid" -> pid = value;
                case "at" -> at = value;
                default -> setIfKnown(values, name, value);
            }
        }
        if (pid < 0 || at < 0)
        {
            throw new IllegalArgumentException("published counters of " + endpoint + ": missing pid or time in '" + text + "'");
        }
        return new PublishedCounters(endpoint, pid, at, values);
    }

    private static void setIfKnown(final long[] values, final String name, final long value)
    {
        for (final Counter counter : COUNTERS)
        {
            if (counter.name().equals(name))
            {
                values[counter.ordinal()] = value;
                return;
            }
        }
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PublishedCounters that && endpoint.equals(that.endpoint) && pid == that.pid &&
            publishedAtEpochMillis == that.publishedAtEpochMillis && Arrays.equals(values, that.values);
    }

    @Override
    public int hashCode()
    {
        return endpoint.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString()
    {
        return "PublishedCounters{" + endpoint + ", pid=" + pid + ", at=" + publishedAtEpochMillis + "}";
    }
}
