package io.pinmx.bench;

import java.nio.file.Path;

/**
 * Command-line options shared by every benchmark program.
 * <pre>
 *   -msglog a:b | -msglog b   sizes 0 and 2^a..2^b bytes (default 0:22)
 *   -iter n[,volumeMB]        IMB repetitions per sample and overall volume (OSU: iterations per size)
 *   -window n                 OSU bandwidth window (default 64)
 *   --transport pinmx|tcp     what to measure (default pinmx)
 *   --baseline tcp|none       also run over TCP in the same run and print ratio lines (default none)
 *   --plot FILE.png|FILE.svg  draw latency and bandwidth against size
 * </pre>
 */
public record BenchOptions(
    int minLog, int maxLog, Repetitions repetitions, boolean iterGiven, int window,
    String transport, String baseline, Path plot)
{
    public static final int MAX_LOG = 30;
    public static final int DEFAULT_MAX_LOG = 22;
    public static final int OSU_DEFAULT_WINDOW = 64;
    public static final String USAGE = "arguments: [-msglog a:b] [-iter n[,volumeMB]] [-window n] " +
        "[--transport pinmx|tcp] [--baseline tcp|none] [--plot FILE.png|FILE.svg]";

    /**
     * @throws IllegalArgumentException naming the argument that is wrong.
     */
    public static BenchOptions parse(final String[] args)
    {
        int minLog = 0;
        int maxLog = DEFAULT_MAX_LOG;
        Repetitions repetitions = Repetitions.IMB_DEFAULT;
        boolean iterGiven = false;
        int window = OSU_DEFAULT_WINDOW;
        String transport = "pinmx";
        String baseline = "none";
        Path plot = null;
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-msglog" ->
                {
                    final String value = value(args, ++i, arg);
                    final String[] parts = value.split(":", -1);
                    if (parts.length > 2)
                    {
                        throw new IllegalArgumentException("-msglog " + value + ": expected a:b or b");
                    }
                    minLog = 2 == parts.length ? Repetitions.parseInt("-msglog", value, parts[0]) : 0;
                    maxLog = Repetitions.parseInt("-msglog", value, parts[parts.length - 1]);
                    if (minLog < 0 || maxLog > MAX_LOG || minLog > maxLog)
                    {
                        throw new IllegalArgumentException("-msglog " + value + ": need 0 <= a <= b <= " + MAX_LOG);
                    }
                }
                case "-iter" ->
                {
                    repetitions = Repetitions.parseIter(value(args, ++i, arg));
                    iterGiven = true;
                }
                case "-window" ->
                {
                    final String value = value(args, ++i, arg);
                    window = Repetitions.parseInt("-window", value, value);
                    if (window < 1 || window > 128)
                    {
                        throw new IllegalArgumentException("-window " + value + ": need 1..128");
                    }
                }
                case "--transport" -> transport = oneOf(arg, value(args, ++i, arg), "pinmx", "tcp");
                case "--baseline" -> baseline = oneOf(arg, value(args, ++i, arg), "tcp", "none");
                case "--plot" ->
                {
                    final String value = value(args, ++i, arg);
                    if (!value.endsWith(".png") && !value.endsWith(".svg"))
                    {
                        throw new IllegalArgumentException("--plot " + value + ": the file must end in .png or .svg");
                    }
                    plot = Path.of(value);
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        if (null != plot && "none".equals(baseline))
        {
            throw new IllegalArgumentException("--plot draws the run against its baseline: add --baseline tcp");
        }
        return new BenchOptions(minLog, maxLog, repetitions, iterGiven, window, transport, baseline, plot);
    }

    public boolean hasBaseline()
    {
        return !"none".equals(baseline);
    }

    /**
     * @return the message sizes in bytes: 0, then 2^minLog..2^maxLog, as IMB runs them.
     */
    public int[] sizes()
    {
        final int[] sizes = new int[maxLog - minLog + 2];
        for (int log = minLog; log <= maxLog; log++)
        {
            sizes[log - minLog + 1] = 1 << log;
        }
        return sizes;
    }

    private static String value(final String[] args, final int i, final String option)
    {
        if (i >= args.length)
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static String oneOf(final String option, final String value, final String... allowed)
    {
        for (final String a : allowed)
        {
            if (a.equals(value))
            {
                return value;
            }
        }
        throw new IllegalArgumentException(option + " " + value + ": expected one of " + String.join(", ", allowed));
    }
}
