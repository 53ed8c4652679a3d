package io.pinmx.pin.admin;

import io.pinmx.pin.kernel.KernelCounter;
import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.node.ChronicleMapCounterStore;
import io.pinmx.pin.node.CounterStore;
import io.pinmx.pin.node.PendingCounters;
import io.pinmx.pin.node.PublishedCounters;
import io.pinmx.pin.spi.Counter;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code counters}: the counters each endpoint published to the node's counters file (per endpoint: the
 * user-space provider's; with those of endpoints that closed before their process opened it, {@link PendingCounters}), and the kernel module's own, module-wide (PINMX_IOC_COUNTERS); {@code counters prune}
 * forgets snapshots of processes that are gone.
 */
final class CountersCommand
{
    /** The name that selects the kernel module's counters alone. */
    static final String KERNEL = "kernel";

    private final NodeFile nodeFile;
    private final Path file;
    private final Supplier<KernelModuleStatus> module;

    CountersCommand(final NodeFile nodeFile, final Supplier<KernelModuleStatus> module)
    {
        this.nodeFile = nodeFile;
        this.file = nodeFile.path();
        this.module = module;
    }

    /**
     * @param endpoint one endpoint's name, {@value #KERNEL}, or null for everything.
     * @param all      zero counters too.
     */
    Report show(final String endpoint, final boolean all)
    {
        final StringBuilder text = new StringBuilder();
        final Map<String, Object> json = new LinkedHashMap<>();
        if (!KERNEL.equals(endpoint))
        {
            json.put("file", file.toString());
            json.put("endpoints", published(endpoint, all, text));
        }
        if (null == endpoint || KERNEL.equals(endpoint))
        {
            json.put(KERNEL, kernel(all, text));
        }
        return new Report(json, text.toString());
    }

    private List<Object> published(final String endpoint, final boolean all, final StringBuilder text)
    {
        final List<PublishedCounters> pending = PendingCounters.list(file);
        final boolean stored = nodeFile.readable("--counters-file");
        if (!stored && pending.isEmpty())
        {
            if (null != endpoint)
            {
                throw new IllegalStateException("no counters published by endpoint " + endpoint + ": no counters file " +
                    file);
            }
            text.append("no counters published: no counters file at ").append(file).append('\n');
            return List.of();
        }
        List<PublishedCounters> snapshots = latest(stored, pending);
        if (null != endpoint)
        {
            snapshots = List.of(snapshots.stream().filter(s -> s.endpoint().equals(endpoint)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no counters published by endpoint " + endpoint +
                    " in " + file)));
        }
        else if (snapshots.isEmpty())
        {
            text.append("no counters published in ").append(file).append('\n');
        }
        final List<Object> json = new ArrayList<>();
        for (final PublishedCounters snapshot : snapshots)
        {
            text.append(snapshot.endpoint()).append(" pid ").append(snapshot.pid())
                .append(snapshot.publisherAlive() ? " (running)" : " (gone)").append(" published ")
                .append(Instant.ofEpochMilli(snapshot.publishedAtEpochMillis())).append('\n');
            final Map<String, Object> values = new LinkedHashMap<>();
            for (final Counter counter : Counter.values())
            {
                final long value = snapshot.get(counter);
                if (all || value != 0)
                {
                    values.put(counter.name(), value);
                    text.append("  ").append(counter.name()).append(' ').append(value).append('\n');
                }
            }
            final Map<String, Object> one = new LinkedHashMap<>();
            one.put("endpoint", snapshot.endpoint());
            one.put("pid", snapshot.pid());
            one.put("running", snapshot.publisherAlive());
            one.put("published", Instant.ofEpochMilli(snapshot.publishedAtEpochMillis()).toString());
            one.put("counters", values);
            json.add(one);
        }
        return json;
    }

    /**
     * @return per endpoint the later of its stored snapshot and its pending one (an endpoint that closed before its
     *         process opened the store), sorted by endpoint name.
     */
    private List<PublishedCounters> latest(final boolean stored, final List<PublishedCounters> pending)
    {
        final Map<String, PublishedCounters> byEndpoint = new TreeMap<>();
        if (stored)
        {
            try (CounterStore store = ChronicleMapCounterStore.open(file))
            {
                store.list().forEach(s -> byEndpoint.put(s.endpoint(), s));
            }
        }
        for (final PublishedCounters p : pending)
        {
            byEndpoint.merge(p.endpoint(), p, (a, b) ->
                a.publishedAtEpochMillis() >= b.publishedAtEpochMillis() ? a : b);
        }
        return new ArrayList<>(byEndpoint.values());
    }

    private Map<String, Object> kernel(final boolean all, final StringBuilder text)
    {
        final KernelModuleStatus status = module.get();
        final Map<String, Object> json = new LinkedHashMap<>();
        if (null != status.deviceProblem())
        {
            json.put("problem", status.deviceProblem());
            text.append("kernel module: ").append(status.deviceProblem()).append('\n');
            return json;
        }
        text.append("kernel module pinmx.ko (module-wide, all endpoints)\n");
        final Map<String, Object> values = new LinkedHashMap<>();
        for (final KernelCounter counter : KernelCounter.values())
        {
            final long value = status.counters()[counter.ordinal()];
            if (all || value != 0)
            {
                values.put(counter.name(), value);
                text.append("  ").append(counter.name()).append(' ').append(value).append('\n');
            }
        }
        json.put("counters", values);
        return json;
    }

    Report prune()
    {
        if (!nodeFile.readable("--counters-file"))
        {
            return new Report(JsonWriter.object("file", file.toString(), "pruned", List.of()),
                "pruned 0: no counters file at " + file + "\n");
        }
        try (CounterStore store = ChronicleMapCounterStore.open(file))
        {
            final StringBuilder text = new StringBuilder();
            final List<Object> pruned = new ArrayList<>();
            for (final PublishedCounters snapshot : store.list())
            {
                if (!snapshot.publisherAlive() && store.remove(snapshot.endpoint()))
                {
                    text.append("pruned ").append(snapshot.endpoint()).append(" (pid ").append(snapshot.pid())
                        .append(" gone)\n");
                    pruned.add(snapshot.endpoint());
                }
            }
            text.append("pruned ").append(pruned.size()).append(" of the counters in ").append(file).append('\n');
            return new Report(JsonWriter.object("file", file.toString(), "pruned", pruned), text.toString());
        }
    }
}
