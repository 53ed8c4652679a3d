package io.pinmx.bench;

import de.erichseifert.vectorgraphics2d.Processors;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Latency and bandwidth against message size, the measured transport against its baselines, side by side
 * in one PNG or SVG (XChart, drawn through VectorGraphics2D for SVG). Size 0 has no place on a log axis and
 * is left out.
 */
public final class ResultPlot
{
    private static final int CHART_WIDTH_PX = 640;
    private static final int CHART_HEIGHT_PX = 480;

    private ResultPlot()
    {
    }

    public static void write(
        final Path file, final String benchmarkName, final String measuredName, final List<Measurement> measured,
        final Map<String, List<Measurement>> baselines)
    {
        write(file, benchmarkName, measuredName, measured, baselines, "");
    }

    /**
     * @param context what the titles add after the benchmark's name (where and when it ran, over what), or "".
     */
    public static void write(
        final Path file, final String benchmarkName, final String measuredName, final List<Measurement> measured,
        final Map<String, List<Measurement>> baselines, final String context)
    {
        System.setProperty("java.awt.headless", "true");
        final List<XYChart> charts = charts(benchmarkName, measuredName, measured, baselines, context);
        if (charts.isEmpty())
        {
            throw new IllegalStateException("--plot " + file + ": nothing to draw (no size above 0 was measured)");
        }
        try
        {
            if (file.toString().endsWith(".svg"))
            {
                final VectorGraphics2D g = new VectorGraphics2D();
                paint(g, charts);
                try (OutputStream out = Files.newOutputStream(file))
                {
                    Processors.get("svg").getDocument(g.getCommands(),
                        new PageSize(CHART_WIDTH_PX * charts.size(), CHART_HEIGHT_PX)).writeTo(out);
                }
            }
            else
            {
                final BufferedImage image =
                    new BufferedImage(CHART_WIDTH_PX * charts.size(), CHART_HEIGHT_PX, BufferedImage.TYPE_INT_RGB);
                final Graphics2D g = image.createGraphics();
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                paint(g, charts);
                g.dispose();
                if (!ImageIO.write(image, "png", file.toFile()))
                {
                    throw new IOException("no PNG writer");
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("--plot " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** @return the latency and the bandwidth chart, each when it has a series to draw. */
    static List<XYChart> charts(final String benchmarkName, final String measuredName, final List<Measurement> measured,
        final Map<String, List<Measurement>> baselines, final String context)
    {
        final String suffix = context.isEmpty() ? "" : " (" + context + ")";
        final XYChart latency = chart(benchmarkName + " latency" + suffix, "t [usec]", true);
        final XYChart bandwidth = chart(benchmarkName + " bandwidth" + suffix, "Mbytes/sec (10^6 B/s)", false);
        addSeries(latency, measuredName, measured, Measurement::latencyUsec);
        addSeries(bandwidth, measuredName, measured, Measurement::mbytesPerSec);
        baselines.forEach((name, baseline) ->
        {
            addSeries(latency, name, baseline, Measurement::latencyUsec);
            addSeries(bandwidth, name, baseline, Measurement::mbytesPerSec);
        });
        return List.of(latency, bandwidth).stream().filter(c -> !c.getSeriesMap().isEmpty()).toList();
    }

    private static void paint(final Graphics2D g, final List<XYChart> charts)
    {
        for (final XYChart chart : charts)
        {
            chart.paint(g, CHART_WIDTH_PX, CHART_HEIGHT_PX);
            g.translate(CHART_WIDTH_PX, 0);
        }
    }

    private static XYChart chart(final String title, final String yTitle, final boolean logY)
    {
        final XYChart chart = new XYChartBuilder().width(CHART_WIDTH_PX).height(CHART_HEIGHT_PX)
            .title(title).xAxisTitle("message size [bytes]").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.setCustomXAxisTickLabelsFormatter(ResultPlot::tickLabel);
        if (logY)
        {
            chart.setCustomYAxisTickLabelsFormatter(ResultPlot::tickLabel);
        }
        return chart;
    }

    /** @return a log axis' tick as people write it: 0.1, 10, 1k, 100k, 1M, rather than 1.0E5. */
    static String tickLabel(final double value)
    {
        if (value >= 1e9)
        {
            return compact(value / 1e9) + "G";
        }
        if (value >= 1e6)
        {
            return compact(value / 1e6) + "M";
        }
        if (value >= 1e3)
        {
            return compact(value / 1e3) + "k";
        }
        return compact(value);
    }

    private static String compact(final double value)
    {
        return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static void addSeries(
        final XYChart chart, final String name, final List<Measurement> results, final ToDoubleFunction<Measurement> value)
    {
        final double[] x = results.stream()
            .filter(m -> m.bytes() > 0 && Ratio.defined(value.applyAsDouble(m), 1)).mapToDouble(Measurement::bytes).toArray();
        final double[] y = results.stream()
            .filter(m -> m.bytes() > 0 && Ratio.defined(value.applyAsDouble(m), 1)).mapToDouble(value).toArray();
        if (x.length > 0)
        {
            final String seriesName = chart.getSeriesMap().containsKey(name) ? name + " (baseline)" : name;
            chart.addSeries(seriesName, x, y).setMarker(SeriesMarkers.CIRCLE);
        }
    }
}
