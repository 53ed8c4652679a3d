package io.pinmx.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
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

    @Test
    void onlySizeZeroLeavesNothingToDraw()
    {
        final List<Measurement> zero = List.of(Measurement.ofTime(0, 1000, 3, 0));
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ResultPlot.write(dir.resolve("p.png"), "PingPong", "pinmx", zero, Map.of("tcp", zero)));
        assertTrue(ex.getMessage().endsWith("nothing to draw (no size above 0 was measured)"), ex.getMessage());
    }
}
