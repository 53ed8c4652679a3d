package io.pinmx.apps.plot;

import io.pinmx.job.ProgramArguments;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * The plots of {@code apps/run.sh}: one PNG per kernel, the time of each version (bars) in each setting (groups),
 * drawn with XChart as bench-imb's plots are. Input: the run's times, one line per version's run,
 * {@code KERNEL<tab>SETTING<tab>VERSION<tab>SECONDS}.
 */
public final class TimesPlot
{
    private static final String USAGE = """
        usage: TimesPlot TIMES_FILE OUTPUT_DIR
          One PNG per kernel in OUTPUT_DIR (KERNEL.png, lower case): each version's time in each setting, from
          TIMES_FILE's lines KERNEL<tab>SETTING<tab>VERSION<tab>SECONDS (apps/run.sh writes them).
          exit status: 0 written, 2 a bad argument or line
        """;
    private static final int CHART_WIDTH_PX = 800;
    private static final int CHART_HEIGHT_PX = 480;
    private static final int FIELDS = 4;

    /** One version's run: a bar. */
    record Time(String kernel, String setting, String version, double seconds)
    {
    }

    private TimesPlot()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        if (args.length != 2)
        {
            ProgramArguments.refuse("TimesPlot", "expected TIMES_FILE OUTPUT_DIR, got " + args.length + " argument(s)");
            return;
        }
        try
        {
            for (final Path png : write(read(Path.of(args[0])), Path.of(args[1])))
            {
                System.out.println("plot: " + png);
            }
        }
        catch (final IllegalArgumentException ex)
        {
            ProgramArguments.refuse("TimesPlot", ex.getMessage());
        }
    }

    /** @throws IllegalArgumentException naming the file and line that is not four fields with a time in seconds. */
    static List<Time> read(final Path file)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read times file " + file + ": " + ex.getMessage(), ex);
        }
        final List<Time> times = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).isBlank())
            {
                continue;
            }
            final String[] fields = lines.get(i).split("\t", -1);
            if (fields.length != FIELDS || fields[0].isBlank() || fields[1].isBlank() || fields[2].isBlank())
            {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": expected KERNEL<tab>SETTING<tab>" +
                    "VERSION<tab>SECONDS, got '" + lines.get(i) + "'");
            }
            times.add(new Time(fields[0], fields[1], fields[2], seconds(file, i + 1, fields[3])));
        }
        return times;
    }

    /**
     * Writes one chart per kernel into {@code directory} (created when missing).
     *
     * @return the files written, in the order the kernels first appear.
     */
    static List<Path> write(final List<Time> times, final Path directory)
    {
        if (times.isEmpty())
        {
            throw new IllegalArgumentException("no times to plot");
        }
        System.setProperty("java.awt.headless", "true");
        final Map<String, List<Time>> byKernel = new LinkedHashMap<>();
        times.forEach(t -> byKernel.computeIfAbsent(t.kernel(), k -> new ArrayList<>()).add(t));
        final List<Path> written = new ArrayList<>();
        try
        {
            Files.createDirectories(directory);
            for (final Map.Entry<String, List<Time>> kernel : byKernel.entrySet())
            {
                final Path png = directory.resolve(fileName(kernel.getKey()));
                writePng(chart(kernel.getKey(), kernel.getValue()), png);
                written.add(png);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("plots in " + directory + ": " + ex.getMessage(), ex);
        }
        return written;
    }

    /** A kernel's chart: a group of bars per setting, a bar per version; a version a setting lacks draws none. */
    static CategoryChart chart(final String kernel, final List<Time> times)
    {
        final Set<String> settings = new LinkedHashSet<>();
        final Map<String, Map<String, Double>> byVersion = new LinkedHashMap<>();
        for (final Time t : times)
        {
            settings.add(t.setting());
            byVersion.computeIfAbsent(t.version(), v -> new LinkedHashMap<>()).put(t.setting(), t.seconds());
        }
        final CategoryChart chart = new CategoryChartBuilder().width(CHART_WIDTH_PX).height(CHART_HEIGHT_PX)
            .title(kernel + ": time per version (lower is faster)").xAxisTitle("setting").yAxisTitle("seconds")
            .build();
        final List<String> x = List.copyOf(settings);
        byVersion.forEach((version, seconds) ->
        {
            final List<Double> y = new ArrayList<>();
            x.forEach(setting -> y.add(seconds.getOrDefault(setting, 0.0)));
            chart.addSeries(version, x, y);
        });
        return chart;
    }

    static String fileName(final String kernel)
    {
        return kernel.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-") + ".png";
    }

    private static double seconds(final Path file, final int line, final String field)
    {
        try
        {
            final double seconds = Double.parseDouble(field);
            if (seconds >= 0 && Double.isFinite(seconds))
            {
                return seconds;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // said below
        }
        throw new IllegalArgumentException(file + " line " + line + ": SECONDS '" + field +
            "' is not a time in seconds");
    }

    private static void writePng(final CategoryChart chart, final Path png) throws IOException
    {
        final BufferedImage image = new BufferedImage(CHART_WIDTH_PX, CHART_HEIGHT_PX, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        chart.paint(g, CHART_WIDTH_PX, CHART_HEIGHT_PX);
        g.dispose();
        if (!ImageIO.write(image, "png", png.toFile()))
        {
            throw new IOException("no PNG writer");
        }
    }
}
