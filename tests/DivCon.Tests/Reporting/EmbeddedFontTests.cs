using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;
using SkiaSharp;

namespace DivCon.Tests.Reporting;

/// <summary>Text comes from the DejaVu Sans carried in DivCon.Reporting, not from the machine's fonts (which a bare
/// machine does not have: there every label would vanish).</summary>
public sealed class EmbeddedFontTests
{
    [Fact]
    public void ScottPlotResolvesTheFamilyToTheAssemblysTypefaces()
    {
        EmbeddedFont.EnsureRegistered();

        Assert.Equal(EmbeddedFont.FamilyName, ScottPlot.Fonts.Default);
        Assert.Same(EmbeddedFont.Regular, ScottPlot.Fonts.GetTypeface(EmbeddedFont.FamilyName, bold: false, italic: false));
        Assert.Same(EmbeddedFont.Bold, ScottPlot.Fonts.GetTypeface(EmbeddedFont.FamilyName, bold: true, italic: false));
        Assert.Equal("DejaVu Sans", EmbeddedFont.Regular.FamilyName);
        Assert.True(EmbeddedFont.Bold.FontWeight > EmbeddedFont.Regular.FontWeight);
    }

    [Fact]
    public void TheEmbeddedFaceHasEveryGlyphOurLabelsUse()
    {
        // Figure text: ASCII plus what titles and units use (±, µ, ×, −, –, Δ, ·, °, ², ³).
        string text = string.Concat(Enumerable.Range(32, 95).Select(c => (char)c)) + "±µ×−–Δ·°²³";

        ushort[] glyphs = EmbeddedFont.Regular.GetGlyphs(text);

        Assert.Equal(text.Length, glyphs.Length);
        Assert.DoesNotContain((ushort)0, glyphs);
    }

    [Fact]
    public void TextDrawnWithTheEmbeddedFaceLeavesInk()
    {
        using var bitmap = new SKBitmap(200, 40);
        using var canvas = new SKCanvas(bitmap);
        canvas.Clear(SKColors.White);
        using var font = new SKFont(EmbeddedFont.Regular, 20);
        using var paint = new SKPaint { Color = SKColors.Black };

        canvas.DrawText("Speedup", 5, 30, font, paint);

        int inked = 0;
        for (int y = 0; y < bitmap.Height; y++)
        {
            for (int x = 0; x < bitmap.Width; x++)
            {
                inked += bitmap.GetPixel(x, y).Red < 128 ? 1 : 0;
            }
        }

        Assert.InRange(inked, 100, 2000);
    }

    [Fact]
    public void AFiguresTitleIsDrawn()
    {
        static int Ink(string title)
        {
            var plot = new LinePlot(title, "x", "y");
            plot.AddSeries("s", [1, 2], [1, 2]);
            using SKBitmap image = SKBitmap.Decode(plot.RenderPng());
            int inked = 0;
            for (int y = 0; y < image.Height; y++)
            {
                for (int x = 0; x < image.Width; x++)
                {
                    inked += image.GetPixel(x, y).Red < 128 ? 1 : 0;
                }
            }

            return inked;
        }

        // The same figure with and without a title: the title's letters add ink.
        Assert.True(Ink("Factored speedups: mergesort") > Ink("") + 150);
    }
}
