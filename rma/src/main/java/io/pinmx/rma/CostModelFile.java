package io.pinmx.rma;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The cost model's cache file: {@code name=value} lines (format, key, the measurement's effort, every cost; a curve as
 * its sizes and its costs, each a space-separated list), then {@code crc32=} of the bytes before it. Written to a
 * temporary file and renamed, so a reader never sees half of one; read back only when the key and the checksum agree,
 * otherwise refused naming the file and what is wrong. A file of another format (written by another version of the
 * library, whose model measured other things) is not refused: it is measured again and replaced, as if there were
 * none, and the reader says so on stderr, naming the file and both formats.
 */
final class CostModelFile
{
    /**
     * 9: the data server's put fitted on each side of the inline limit, through multi-piece shapes only, the passive
     * probes' pieces a page apart (8: the data server's put fitted as the scatter is, through the same shapes, both
     * through medians; 7: the
     * scatter costs fitted through six shapes; 6: a passive peer's scatter costs from three, {@code
     * scatter=none} where not measured; 5: tp and tc of each size class; 4:
     * tp and tc from the gaps between the strided protocols at two piece sizes either side of where both protocols
     * change path; 3: from one size against the contiguous line; 2: without the effort it was measured with, so a quick model was taken for a full one; 1: lines
     * through two sizes, a per-piece start-up for gets and puts and a copy cost).
     */
    static final int FORMAT = 9;
    private static final String NONE = "none";
    private static final String CRC = "crc32=";

    private CostModelFile()
    {
    }

    /** A model read back, with the effort it was measured with. */
    record Stored(CostModel model, CalibrationEffort effort)
    {
    }

    /** The default file of a key: {@code pinmx/rma-model-KEY.properties} in this process's cache directory. */
    static Path defaultPath(final String key)
    {
        return cacheDirectory(System.getenv()).resolve("pinmx").resolve("rma-model-" + key + ".properties");
    }

    /**
     * @return {@code $XDG_CACHE_HOME} if set to an absolute path, else {@code $HOME/.cache}, else {@code .cache} in the
     *         account's home: Java's own user.home ignores HOME, and launchers that give ranks a home of their own (the
     *         benchmarks across network namespaces) left a file per run, keyed by a new interface name, in root's.
     */
    static Path cacheDirectory(final Map<String, String> env)
    {
        final String xdg = env.get("XDG_CACHE_HOME");
        if (null != xdg && xdg.startsWith("/"))
        {
            return Path.of(xdg);
        }
        final String home = env.get("HOME");
        return Path.of(null != home && !home.isEmpty() ? home : System.getProperty("user.home"), ".cache");
    }

    /**
     * @throws RmaException naming the file if it cannot be written.
     */
    static void write(final Path file, final CostModel model, final CalibrationEffort effort)
    {
        final StringBuilder text = new StringBuilder("# pinmx rma cost model (ns, ns per byte); delete to measure again\n");
        for (final Map.Entry<String, String> e : fields(model, effort).entrySet())
        {
            text.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        final byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        final CRC32 crc = new CRC32();
        crc.update(body);
        final String all = text + CRC + Long.toHexString(crc.getValue()) + '\n';
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            final Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            Files.writeString(temporary, all, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new RmaException("cannot write the rma cost model file " + file + ": " + ex, ex);
        }
    }

    /**
     * @return the model in the file, or null if there is no file or it has another format.
     * @throws RmaException naming the file and the problem if it is unreadable, damaged (checksum, missing or bad
     *                      value) or measured for another key.
     */
    static Stored read(final Path file, final String key)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw refused(file, "cannot be read: " + ex);
        }
        final int crcAt = text.lastIndexOf(CRC);
        if (crcAt < 0 || (crcAt > 0 && text.charAt(crcAt - 1) != '\n'))
        {
            throw refused(file, "has no " + CRC + " line");
        }
        final CRC32 crc = new CRC32();
        crc.update(text.substring(0, crcAt).getBytes(StandardCharsets.UTF_8));
        final String stored = text.substring(crcAt + CRC.length()).trim();
        if (!Long.toHexString(crc.getValue()).equals(stored))
        {
            throw refused(file, "is damaged: checksum " + stored + " but its contents give " +
                Long.toHexString(crc.getValue()));
        }
        final Map<String, String> values = new LinkedHashMap<>();
        for (final String line : text.substring(0, crcAt).split("\n"))
        {
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final int eq = line.indexOf('=');
            if (eq <= 0)
            {
                throw refused(file, "has a line that is not name=value: '" + line + "'");
            }
            values.put(line.substring(0, eq), line.substring(eq + 1));
        }
        if (!Integer.toString(FORMAT).equals(values.get("format")))
        {
            // Said because the job is then silent for the measurement, which the file was meant to spare it.
            System.err.println("pinmx-rma: the cost model file " + file + " has format " + values.get("format") +
                ", this library's is " + FORMAT + ": measuring again and replacing it");
            return null;
        }
        if (!key.equals(values.get("key")))
        {
            throw refused(file, "was measured for " + values.get("key") + ", not " + key);
        }
        final CalibrationEffort effort = effort(file, values);
        try
        {
            return new Stored(new CostModel(key,
                line(file, values, "getContiguous"), line(file, values, "putContiguous"),
                strided(file, values, "get"), strided(file, values, "put"), strided(file, values, "acc"),
                curve(file, values, "getZeroCopy"), curve(file, values, "getStream"),
                curve(file, values, "putZeroCopy"), curve(file, values, "putStream"), scatter(file, values, "scatter"),
                served(file, values)), effort);
        }
        catch (final IllegalArgumentException ex)
        {
            throw refused(file, "holds an impossible cost: " + ex.getMessage());
        }
    }

    private static Map<String, String> fields(final CostModel m, final CalibrationEffort effort)
    {
        final Map<String, String> f = new LinkedHashMap<>();
        f.put("format", Integer.toString(FORMAT));
        f.put("key", m.key());
        f.put("effort", effort.word());
        put(f, "getContiguous", m.getContiguous());
        put(f, "putContiguous", m.putContiguous());
        put(f, "get", m.get());
        put(f, "put", m.put());
        put(f, "acc", m.acc());
        put(f, "getZeroCopy", m.getZeroCopy());
        put(f, "getStream", m.getStream());
        put(f, "putZeroCopy", m.putZeroCopy());
        put(f, "putStream", m.putStream());
        put(f, "scatter", m.scatter());
        if (null == m.served())
        {
            f.put("served", NONE);
        }
        else
        {
            f.put("served.inlineBytes", Long.toString(m.served().inlineBytes()));
            put(f, "served.inline", m.served().inline());
            put(f, "served.pulled", m.served().pulled());
        }
        return f;
    }

    private static void put(final Map<String, String> f, final String name, final CostModel.Scatter scatter)
    {
        if (null == scatter)
        {
            f.put(name, NONE);
        }
        else
        {
            f.put(name + ".startNs", format(scatter.startNs()));
            f.put(name + ".byteNs", format(scatter.byteNs()));
            f.put(name + ".pieceNs", format(scatter.pieceNs()));
        }
    }

    private static void put(final Map<String, String> f, final String name, final CostModel.Line line)
    {
        f.put(name + ".startNs", format(line.startNs()));
        f.put(name + ".byteNs", format(line.byteNs()));
    }

    private static void put(final Map<String, String> f, final String name, final CostModel.Strided strided)
    {
        for (final CostModel.SizeClass size : CostModel.SizeClass.values())
        {
            final String sized = sized(name, size);
            f.put(sized + ".pieceNs", format(strided.of(size).pieceNs()));
            f.put(sized + ".packByteNs", format(strided.of(size).packByteNs()));
        }
    }

    private static String sized(final String name, final CostModel.SizeClass size)
    {
        return name + "." + size.name().toLowerCase(Locale.ROOT);
    }

    private static void put(final Map<String, String> f, final String name, final CostModel.Curve curve)
    {
        final StringBuilder bytes = new StringBuilder();
        final StringBuilder ns = new StringBuilder();
        final long[] sizes = curve.bytes();
        final double[] costs = curve.ns();
        for (int i = 0; i < sizes.length; i++)
        {
            bytes.append(i > 0 ? " " : "").append(sizes[i]);
            ns.append(i > 0 ? " " : "").append(format(costs[i]));
        }
        f.put(name + ".bytes", bytes.toString());
        f.put(name + ".ns", ns.toString());
    }

    private static String format(final double value)
    {
        return String.format(Locale.ROOT, "%.6f", value);
    }

    private static CostModel.Line line(final Path file, final Map<String, String> values, final String name)
    {
        return new CostModel.Line(number(file, values, name + ".startNs"), number(file, values, name + ".byteNs"));
    }

    /** @return the scatter or served costs {@code name}, or null if the file says {@code NAME=none}. */
    private static CostModel.Scatter scatter(final Path file, final Map<String, String> values, final String name)
    {
        if (NONE.equals(values.get(name)))
        {
            return null;
        }
        return new CostModel.Scatter(number(file, values, name + ".startNs"), number(file, values, name + ".byteNs"),
            number(file, values, name + ".pieceNs"));
    }

    /** @return the data server's two fits, or null if the file says {@code served=none}. */
    private static CostModel.Served served(final Path file, final Map<String, String> values)
    {
        if (NONE.equals(values.get("served")))
        {
            return null;
        }
        final String limit = required(file, values, "served.inlineBytes");
        try
        {
            return new CostModel.Served(Long.parseLong(limit), scatter(file, values, "served.inline"),
                scatter(file, values, "served.pulled"));
        }
        catch (final NumberFormatException ex)
        {
            throw refused(file, "has served.inlineBytes=" + limit + ", not a size");
        }
    }

    private static CostModel.Strided strided(final Path file, final Map<String, String> values, final String name)
    {
        return new CostModel.Strided(gap(file, values, sized(name, CostModel.SizeClass.SMALL)),
            gap(file, values, sized(name, CostModel.SizeClass.LARGE)));
    }

    private static CostModel.Gap gap(final Path file, final Map<String, String> values, final String name)
    {
        return new CostModel.Gap(number(file, values, name + ".pieceNs"), number(file, values, name + ".packByteNs"));
    }

    private static CostModel.Curve curve(final Path file, final Map<String, String> values, final String name)
    {
        final String[] sizes = words(file, values, name + ".bytes");
        final String[] costs = words(file, values, name + ".ns");
        final long[] bytes = new long[sizes.length];
        final double[] ns = new double[costs.length];
        for (int i = 0; i < sizes.length; i++)
        {
            try
            {
                bytes[i] = Long.parseLong(sizes[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw refused(file, "has " + name + ".bytes=" + values.get(name + ".bytes") + ", not sizes");
            }
        }
        for (int i = 0; i < costs.length; i++)
        {
            ns[i] = parse(file, name + ".ns", costs[i]);
        }
        return new CostModel.Curve(bytes, ns);
    }

    private static String[] words(final Path file, final Map<String, String> values, final String name)
    {
        final String value = values.get(name);
        if (null == value || value.isBlank())
        {
            throw refused(file, "has no " + name);
        }
        return value.trim().split(" +");
    }

    private static CalibrationEffort effort(final Path file, final Map<String, String> values)
    {
        try
        {
            return CalibrationEffort.parse("effort", required(file, values, "effort"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw refused(file, "has " + ex.getMessage());
        }
    }

    private static double number(final Path file, final Map<String, String> values, final String name)
    {
        return parse(file, name, required(file, values, name));
    }

    private static String required(final Path file, final Map<String, String> values, final String name)
    {
        final String value = values.get(name);
        if (null == value)
        {
            throw refused(file, "has no " + name);
        }
        return value;
    }

    private static double parse(final Path file, final String name, final String value)
    {
        try
        {
            return Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            throw refused(file, "has " + name + "=" + value + ", not a number");
        }
    }

    private static RmaException refused(final Path file, final String why)
    {
        return new RmaException("rma cost model file " + file + " " + why + " (delete it, or set " +
            RmaOptions.RECALIBRATE_VARIABLE + "=1 to measure again)");
    }
}
