package io.pinmx.pin.spi;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Provider options named by key, for callers that must not name a provider's classes: a key is
 * {@code PROVIDER.OPTION} ({@code user.progressThread}, {@code kernel.interface}), a value one of
 * {@link #VALUE_TYPES}. Each provider reads its own keys and refuses, naming the key, one it does not know or
 * a value of another type; keys of other providers are left to them. Immutable.
 */
public final class ProviderOptions
{
    /** The types a value may have (a value may be a subclass: an Inet4Address, a UnixPath). */
    public static final Set<Class<?>> VALUE_TYPES =
        Set.of(Boolean.class, Integer.class, Long.class, Double.class, String.class, Path.class, InetAddress.class);

    private static final ProviderOptions NONE = new ProviderOptions(Map.of());

    private final Map<String, Object> values;

    private ProviderOptions(final Map<String, Object> values)
    {
        this.values = values;
    }

    /**
     * @return options with no keys.
     */
    public static ProviderOptions none()
    {
        return NONE;
    }

    /**
     * @param key   {@code PROVIDER.OPTION}.
     * @param value one of {@link #VALUE_TYPES}.
     * @return these options with {@code key} set to {@code value}, replacing an earlier value.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming a malformed key or a value of another type.
     */
    public ProviderOptions with(final String key, final Object value)
    {
        if (null == key || key.indexOf('.') <= 0 || key.endsWith("."))
        {
            throw new DriverException(DriverError.BAD_ARGUMENT,
                "provider option '" + key + "': expected PROVIDER.OPTION, e.g. user.progressThread");
        }
        if (null == value || VALUE_TYPES.stream().noneMatch(type -> type.isInstance(value)))
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "provider option '" + key + "': value " + value +
                " is not a Boolean, Integer, Long, Double, String, Path or InetAddress");
        }
        final Map<String, Object> copy = new TreeMap<>(values);
        copy.put(key, value);
        return new ProviderOptions(Collections.unmodifiableMap(copy));
    }

    /**
     * @param more options to add.
     * @return these options with every key of {@code more} set to its value there.
     */
    public ProviderOptions withAll(final ProviderOptions more)
    {
        if (more.values.isEmpty())
        {
            return this;
        }
        final Map<String, Object> copy = new TreeMap<>(values);
        copy.putAll(more.values);
        return new ProviderOptions(Collections.unmodifiableMap(copy));
    }

    /**
     * @param provider a provider's name.
     * @return the keys given for it, sorted.
     */
    public Set<String> keysOf(final String provider)
    {
        final Set<String> keys = new TreeSet<>();
        for (final String key : values.keySet())
        {
            if (key.startsWith(provider + "."))
            {
                keys.add(key);
            }
        }
        return keys;
    }

    /**
     * @param provider a provider's name.
     * @param known    the keys it reads.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming the first key of {@code provider} not in
     *                         {@code known}, and the known ones.
     */
    public void refuseUnknown(final String provider, final Set<String> known)
    {
        for (final String key : keysOf(provider))
        {
            if (!known.contains(key))
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "unknown provider option '" + key +
                    "' for the " + provider + " driver; it knows " + new TreeSet<>(known));
            }
        }
    }

    /**
     * @param key  {@code PROVIDER.OPTION}.
     * @param type the type the provider reads it as.
     * @param <T>  value type.
     * @return the value, if given.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming the key when its value has another type.
     */
    public <T> Optional<T> get(final String key, final Class<T> type)
    {
        final Object value = values.get(key);
        if (null == value)
        {
            return Optional.empty();
        }
        if (!type.isInstance(value))
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "provider option '" + key + "': expected " +
                type.getSimpleName() + ", got " + value.getClass().getSimpleName() + " " + value);
        }
        return Optional.of(type.cast(value));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ProviderOptions options && values.equals(options.values);
    }

    @Override
    public int hashCode()
    {
        return values.hashCode();
    }

    @Override
    public String toString()
    {
        return values.toString();
    }
}
