using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Tests.Reporting;

public sealed class StrokeFontTests
{
    private static (int Count, int X0, int Y0, int X1, int Y1) Ink(RgbaImage image)
    {
        int count = 0, x0 = int.MaxValue, y0 = int.MaxValue, x1 = -1, y1 = -1;
        for (int y = 0; y < image.Height; y++)
        {
            for (int x = 0; x < image.Width; x++)
            {
                if (image.GetPixel(x, y).R < 160)
                {
                    count++;
                    x0 = Math.Min(x0, x);
                    y0 = Math.Min(y0, y);
                    x1 = Math.Max(x1, x);
                    y1 = Math.Max(y1, y);
                }
            }
        }

        return (count, x0, y0, x1, y1);
    }

    [Fact]
    public void CoversPrintableAsciiAndTheSymbolsPlotsUse()
    {
        for (char c = ' '; c <= '~'; c++)
        {
            Assert.True(StrokeFont.IsSupported(c), $"'{c}' has no glyph");
        }

        foreach (char c in "±·°µ×²³Δ−–")
        {
            Assert.True(StrokeFont.IsSupported(c), $"'{c}' has no glyph");
        }

        Assert.False(StrokeFont.IsSupported('€'));
    }

    [Fact]
    public void EverySupportedCharacterDrawsInkWithinItsBox()
    {
        const double Size = 22;
        foreach (char c in StrokeFont.SupportedCharacters.Where(c => c != ' '))
        {
            var image = new RgbaImage(60, 60, PlotColor.White);
            new Canvas(image).DrawText(c.ToString(), 20, 40, Size, PlotColor.Black, HAlign.Left, VAlign.Baseline);

            var (count, x0, y0, x1, y1) = Ink(image);
            Assert.True(count >= 3, $"'{c}' (U+{(int)c:X4}) drew {count} pixels");
            double width = StrokeFont.MeasureWidth(c.ToString(), Size);
            // Ink stays within the advance box (plus the stroke half-width) and the ascender/descender band.
            Assert.InRange(x0, 20 - 4, 20 + width + 4);
            Assert.InRange(x1, 20 - 4, 20 + width + 4);
            Assert.InRange(y0, 40 - Size, 40 + 6);
            Assert.InRange(y1, 40 - Size, 40 + StrokeFont.DescentPx(Size) + 4);
        }
    }

    [Fact]
    public void DistinctCharactersLookDistinct()
    {
        static string Signature(char c)
        {
            var image = new RgbaImage(40, 40, PlotColor.White);
            new Canvas(image).DrawText(c.ToString(), 10, 30, 20, PlotColor.Black, HAlign.Left, VAlign.Baseline);
            var bits = new System.Text.StringBuilder();
            for (int y = 0; y < 40; y++)
            {
                for (int x = 0; x < 40; x++)
                {
                    bits.Append(image.GetPixel(x, y).R < 128 ? '1' : '0');
                }
            }

            return bits.ToString();
        }

        var glyphs = StrokeFont.SupportedCharacters.Where(c => c != ' ').ToList();
        var seen = new Dictionary<string, char>();
        foreach (char c in glyphs)
        {
            string signature = Signature(c);
            Assert.False(seen.TryGetValue(signature, out char twin), $"'{c}' renders exactly like '{twin}'");
            seen[signature] = c;
        }
    }

    [Fact]
    public void UnsupportedCharactersDrawABoxAndSpaceDrawsNothing()
    {
        var box = new RgbaImage(40, 40, PlotColor.White);
        new Canvas(box).DrawText("€", 10, 30, 20, PlotColor.Black, HAlign.Left, VAlign.Baseline);
        var blank = new RgbaImage(40, 40, PlotColor.White);
        new Canvas(blank).DrawText("  ", 10, 30, 20, PlotColor.Black, HAlign.Left, VAlign.Baseline);

        Assert.True(Ink(box).Count > 20);
        Assert.Equal(0, Ink(blank).Count);
    }

    [Fact]
    public void RotatedTextRunsBottomToTop()
    {
        var image = new RgbaImage(80, 300, PlotColor.White);
        new Canvas(image).DrawText("Normalised turnaround", 40, 150, 13, PlotColor.Black, HAlign.Center, VAlign.Middle, 90);

        var (_, x0, y0, x1, y1) = Ink(image);
        double length = StrokeFont.MeasureWidth("Normalised turnaround", 13);
        Assert.InRange(y1 - y0, length - 4, length + 4);
        Assert.True(x1 - x0 < 20, $"rotated text is {x1 - x0} px wide");
        Assert.InRange((y0 + y1) / 2.0, 145, 155);
    }

    [Fact]
    public void WidthScalesWithSize()
    {
        double small = StrokeFont.MeasureWidth("Speedup 1.25", 11);
        double large = StrokeFont.MeasureWidth("Speedup 1.25", 22);

        Assert.Equal(2 * small, large, 9);
        Assert.Equal(0, StrokeFont.MeasureWidth("", 11));
    }
}
