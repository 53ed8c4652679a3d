package io.pinmx.apps.plot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimesPlotTest
{
    @TempDir
    Path dir;

    @Test
    void writesOnePngPerKernelWithABarPerVersionInEachSetting() throws Exception
    {
        final Path times = dir.resolve("times.tsv");
        Files.writeString(times, """
            MG A\tnp2 veth\tone-sided\t5.80
            MG A\tnp2 veth\tMPJ pinmx\t10.31
            SRUMMA 1024\tnp2 veth\tone-sided\t1.73

            MG A\tnp2 host\tone-sided\t4.00
            MG A\tnp2 host\tMPJ niodev\t6.50
            """);
        final List<TimesPlot.Time> read = TimesPlot.read(times);
        assertEquals(5, read.size());
        assertEquals(new TimesPlot.Time("MG A", "np2 veth", "MPJ pinmx", 10.31), read.get(1));

        final List<Path> pngs = TimesPlot.write(read, dir.resolve("plots"));
        assertEquals(List.of(dir.resolve("plots/mg-a.png"), dir.resolve("plots/srumma-1024.png")), pngs);
        for (final Path png : pngs)
        {
            final BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(800, image.getWidth(), png.toString());
            assertEquals(480, image.getHeight(), png.toString());
        }

        final CategoryChart mg = TimesPlot.chart("MG A", read.stream().filter(t -> t.kernel().equals("MG A")).toList());
        assertEquals(List.of("one-sided", "MPJ pinmx", "MPJ niodev"), new ArrayList<>(mg.getSeriesMap().keySet()));
        final CategorySeries oneSided = mg.getSeriesMap().get("one-sided");
        assertEquals(List.of("np2 veth", "np2 host"), List.copyOf(oneSided.getXData()));
        assertEquals(List.of(5.80, 4.00), List.copyOf(oneSided.getYData()));
        final CategorySeries niodev = mg.getSeriesMap().get("MPJ niodev");
        assertEquals(List.of(0.0, 6.50), List.copyOf(niodev.getYData()));
    }

    @Test
    void aLineThatIsNotFourFieldsWithATimeIsRefusedNamingItsLine() throws Exception
    {
        final Path times = dir.resolve("times.tsv");
        Files.writeString(times, "MG A\tnp2 veth\tone-sided\t5.8\nMG A\tnp2 veth\tMPJ pinmx\n");
        final IllegalArgumentException short_ = assertThrows(IllegalArgumentException.class,
            () -> TimesPlot.read(times));
        assertTrue(short_.getMessage().contains("line 2") && short_.getMessage().contains("MPJ pinmx"),
            short_.getMessage());

        Files.writeString(times, "MG A\tnp2 veth\tone-sided\tfast\n");
        final IllegalArgumentException notSeconds = assertThrows(IllegalArgumentException.class,
            () -> TimesPlot.read(times));
        assertTrue(notSeconds.getMessage().contains("line 1") && notSeconds.getMessage().contains("'fast'"),
            notSeconds.getMessage());

        Files.writeString(times, "MG A\tnp2 veth\tone-sided\t-1\n");
        assertThrows(IllegalArgumentException.class, () -> TimesPlot.read(times));
        assertThrows(IllegalArgumentException.class, () -> TimesPlot.read(dir.resolve("missing.tsv")));
    }

    @Test
    void noTimesWritesNothing()
    {
        final Path plots = dir.resolve("plots");
        assertThrows(IllegalArgumentException.class, () -> TimesPlot.write(List.of(), plots));
        assertFalse(Files.exists(plots));
    }
}
