package io.pinmx.pin.spi;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which endpoint to open and the provider's options. A provider's own code and tests give its options as one
 * immutable type of the provider (found with {@link #options(Class)}); callers above the contract, which never name
 * a provider's class, give them by key ({@link #providerOptions()}, keys in {@link ProviderOptionKeys}), and a key
 * overrides the same option of the typed value.
 */
public final class EndpointConfig
{
    /** Highest board index. */
    public static final int MAX_BOARD_INDEX = 255;

    private final int boardIndex;
    private final int endpointIndex;
    private final Map<Class<?>, Object> options;
    private final ProviderOptions providerOptions;
    private final boolean progressByOpener;

    private EndpointConfig(final Builder builder)
    {
        this(builder.boardIndex, builder.endpointIndex, Map.copyOf(builder.options), builder.providerOptions,
            builder.progressByOpener);
    }

    private EndpointConfig(
        final int boardIndex,
        final int endpointIndex,
        final Map<Class<?>, Object> options,
        final ProviderOptions providerOptions,
        final boolean progressByOpener)
    {
        this.boardIndex = boardIndex;
        this.endpointIndex = endpointIndex;
        this.options = options;
        this.providerOptions = providerOptions;
        this.progressByOpener = progressByOpener;
    }

    /**
     * @return a builder for board 0, endpoint 0 and no provider options.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @param boardIndex    board on this host.
     * @param endpointIndex endpoint on the board.
     * @return a config without provider options.
     */
    public static EndpointConfig of(final int boardIndex, final int endpointIndex)
    {
        return builder().boardIndex(boardIndex).endpointIndex(endpointIndex).build();
    }

    /**
     * @return board on this host, 0..{@link #MAX_BOARD_INDEX}.
     */
    public int boardIndex()
    {
        return boardIndex;
    }

    /**
     * @return endpoint on the board, 0..{@link EndpointAddress#MAX_ENDPOINT_INDEX}.
     */
    public int endpointIndex()
    {
        return endpointIndex;
    }

    /**
     * @param type the provider's options type.
     * @param <T>  options type.
     * @return the options of that type, if given.
     */
    public <T> Optional<T> options(final Class<T> type)
    {
        return Optional.ofNullable(type.cast(options.get(type)));
    }

    /**
     * @return the options given by key; each provider reads and checks its own.
     */
    public ProviderOptions providerOptions()
    {
        return providerOptions;
    }

    /**
     * @return true when whoever opens the endpoint keeps polling it (the endpoint library's progress thread), so the
     *         provider runs no progress thread of its own whatever its options say: one thread per endpoint waits
     *         and wakes, not two.
     */
    public boolean progressByOpener()
    {
        return progressByOpener;
    }

    /**
     * @return this config with {@link #progressByOpener()} true.
     */
    public EndpointConfig withProgressByOpener()
    {
        return new EndpointConfig(boardIndex, endpointIndex, options, providerOptions, true);
    }

    @Override
    public String toString()
    {
        return "EndpointConfig{board=" + boardIndex + ", endpoint=" + endpointIndex + ", options=" + options.values() +
            ", provider options=" + providerOptions +
            (progressByOpener ? ", progress by the opener" : "") + "}";
    }

    /**
     * Mutable builder; {@link #build()} validates.
     */
    public static final class Builder
    {
        private int boardIndex;
        private int endpointIndex;
        private final Map<Class<?>, Object> options = new HashMap<>();
        private ProviderOptions providerOptions = ProviderOptions.none();
        private boolean progressByOpener;

        private Builder()
        {
        }

        /**
         * @param boardIndex board on this host.
         * @return this.
         */
        public Builder boardIndex(final int boardIndex)
        {
            this.boardIndex = boardIndex;
            return this;
        }

        /**
         * @param endpointIndex endpoint on the board.
         * @return this.
         */
        public Builder endpointIndex(final int endpointIndex)
        {
            this.endpointIndex = endpointIndex;
            return this;
        }

        /**
         * Set the provider options of type {@code type}, replacing earlier ones of the same type.
         *
         * @param type    key: the options type.
         * @param options immutable options value.
         * @param <T>     options type.
         * @return this.
         */
        public <T> Builder options(final Class<T> type, final T options)
        {
            if (null == type || null == options)
            {
                throw new IllegalArgumentException("endpoint config: options type and value must not be null");
            }
            this.options.put(type, options);
            return this;
        }

        /**
         * Set a provider option by key, replacing an earlier value of the key.
         *
         * @param key   {@code PROVIDER.OPTION}, one of {@link ProviderOptionKeys}.
         * @param value of the type the key names.
         * @return this.
         * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming a malformed key or a value of no option
         *                         type ({@link ProviderOptions#with}).
         */
        public Builder option(final String key, final Object value)
        {
            providerOptions = providerOptions.with(key, value);
            return this;
        }

        /**
         * @param more provider options by key, each replacing an earlier value of its key.
         * @return this.
         */
        public Builder options(final ProviderOptions more)
        {
            providerOptions = providerOptions.withAll(more);
            return this;
        }

        /**
         * @param type the provider's options type.
         * @param <T>  options type.
         * @return the options of that type set so far, if any (so a caller can change one of them).
         */
        public <T> Optional<T> options(final Class<T> type)
        {
            return Optional.ofNullable(type.cast(options.get(type)));
        }

        /**
         * @param progressByOpener true: the opener keeps polling the endpoint ({@link EndpointConfig#progressByOpener()}).
         * @return this.
         */
        public Builder progressByOpener(final boolean progressByOpener)
        {
            this.progressByOpener = progressByOpener;
            return this;
        }

        /**
         * @return the config.
         * @throws IllegalArgumentException naming an index out of range.
         */
        public EndpointConfig build()
        {
            if (boardIndex < 0 || boardIndex > MAX_BOARD_INDEX)
            {
                throw new IllegalArgumentException(
                    "endpoint config: board index " + boardIndex + " not in 0.." + MAX_BOARD_INDEX);
            }
            if (endpointIndex < 0 || endpointIndex > EndpointAddress.MAX_ENDPOINT_INDEX)
            {
                throw new IllegalArgumentException("endpoint config: endpoint index " + endpointIndex + " not in 0.." +
                    EndpointAddress.MAX_ENDPOINT_INDEX);
            }
            return new EndpointConfig(this);
        }
    }
}
