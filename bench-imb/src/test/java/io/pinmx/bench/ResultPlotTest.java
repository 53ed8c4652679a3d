package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultPlotTest
{
    @TempDir
    Path dir;

    @Test
    void pngHasALatencyAndABandwidthChartSideBySide() throws Exception
    {
        final List<Measurement> a = List.of(Measurement.ofTime(0, 1000, 3, 0), Measurement.ofTime(8, 1000, 3, 2.7),
            Measurement.ofTime(4194304, 10, 900, 4660));
        final List<Measurement> b = List.of(Measurement.ofTime(0, 1000, 9, 0), Measurement.ofTime(8, 1000, 9, 0.9),
            Measurement.ofTime(4194304, 10, 1500, 2796));
        final Path png = dir.resolve("p.png");
        ResultPlot.write(png, "PingPong", "pinmx", a, Map.of("tcp", b));
        final BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1280, image.getWidth());
        assertEquals(480, image.getHeight());
    }

    /** Log axes read as sizes and times are written, never 1.0E5; a title says where, when and over what. */
    @Test
    void ticksReadAsNumbersAndTheTitleSaysWhereAndWhen() throws Exception
    {
        assertEquals("1", ResultPlot.tickLabel(1));
        assertEquals("0.1", ResultPlot.tickLabel(0.1));
        assertEquals("100", ResultPlot.tickLabel(100));
        assertEquals("10k", ResultPlot.tickLabel(10_000));
        assertEquals("1M", ResultPlot.tickLabel(1_000_000));
        assertEquals("4.19M", ResultPlot.tickLabel(4_194_304));
        final List<Measurement> rows = List.of(Measurement.ofTime(8, 100, 3.5, 2.3), Measurement.ofTime(100_000, 10, 40, 2500));
        final List<XYChart> charts = ResultPlot.charts("PingPong", "pinmx", rows, Map.of(),
            "pinmx: user driver, node-7, 2026-12-05T12:40:00Z");
        assertEquals(List.of("PingPong latency (pinmx: user driver, node-7, 2026-12-05T12:40:00Z)",
            "PingPong bandwidth (pinmx: user driver, node-7, 2026-12-05T12:40:00Z)"),
            charts.stream().map(XYChart::getTitle).toList());
        assertEquals(List.of("pinmx"), List.copyOf(charts.get(0).getSeriesMap().keySet()), "no baseline needed");
        final Path svg = dir.resolve("alone.svg");
        ResultPlot.write(svg, "PingPong", "pinmx", rows, Map.of(), "pinmx: user driver");
        assertTrue(Files.readString(svg).contains("<svg"), "plot is not an SVG");
    }

    @Test
    void onlySizeZeroLeavesNothingToDraw()
    {
        final List<Measurement> zero = List.of(Measurement.ofTime(0, 1000, 3, 0));
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ResultPlot.write(dir.resolve("p.png"), "PingPong", "pinmx", zero, Map.of("tcp", zero)));
        assertTrue(ex.getMessage().endsWith("nothing to draw (no size above 0 was measured)"), ex.getMessage());
    }
}
