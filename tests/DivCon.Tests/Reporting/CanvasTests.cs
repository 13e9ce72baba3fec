using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Tests.Reporting;

public sealed class CanvasTests
{
    private static readonly PlotColor s_blue = PlotColor.FromHex("#0072B2");

    [Fact]
    public void FillRect_OnWholePixelsIsExact()
    {
        var image = new RgbaImage(10, 10, PlotColor.White);
        new Canvas(image).FillRect(2, 3, 5, 7, s_blue);

        for (int y = 0; y < 10; y++)
        {
            for (int x = 0; x < 10; x++)
            {
                bool inside = x >= 2 && x < 5 && y >= 3 && y < 7;
                Assert.Equal(inside ? s_blue : PlotColor.White, image.GetPixel(x, y));
            }
        }
    }

    [Fact]
    public void FillRect_BlendsFractionalEdges()
    {
        var image = new RgbaImage(4, 1, PlotColor.White);
        new Canvas(image).FillRect(0, 0, 1.5, 1, PlotColor.Black);

        Assert.Equal(PlotColor.Black, image.GetPixel(0, 0));
        Assert.InRange(image.GetPixel(1, 0).R, 125, 130); // half covered
        Assert.Equal(PlotColor.White, image.GetPixel(2, 0));
    }

    [Fact]
    public void Clip_KeepsDrawingInside()
    {
        var image = new RgbaImage(20, 20, PlotColor.White);
        var canvas = new Canvas(image);
        canvas.SetClip(5, 5, 15, 15);
        canvas.FillRect(0, 0, 20, 20, s_blue);
        canvas.StrokePolyline([new(0, 10), new(20, 10)], 3, PlotColor.Black, LinePattern.Solid);
        canvas.DrawMarker(MarkerShape.Circle, 2, 2, 6, PlotColor.Black);

        for (int y = 0; y < 20; y++)
        {
            for (int x = 0; x < 20; x++)
            {
                bool inside = x >= 5 && x < 15 && y >= 5 && y < 15;
                Assert.Equal(inside, image.GetPixel(x, y) != PlotColor.White);
            }
        }
    }

    [Fact]
    public void SolidLineIsContinuous_DashedLineHasGaps()
    {
        var solid = new RgbaImage(100, 10, PlotColor.White);
        new Canvas(solid).StrokePolyline([new(5, 5.5), new(95, 5.5)], 2, PlotColor.Black, LinePattern.Solid);
        var dashed = new RgbaImage(100, 10, PlotColor.White);
        new Canvas(dashed).StrokePolyline([new(5, 5.5), new(95, 5.5)], 2, PlotColor.Black, LinePattern.Dashed);

        var solidRow = Enumerable.Range(6, 88).Select(x => solid.GetPixel(x, 5).R).ToList();
        var dashedRow = Enumerable.Range(6, 88).Select(x => dashed.GetPixel(x, 5).R).ToList();
        Assert.All(solidRow, r => Assert.True(r < 30));
        Assert.True(dashedRow.Count(r => r > 225) >= 15, "dashes need gaps");
        Assert.True(dashedRow.Count(r => r < 30) >= 30, "dashes need ink");
    }

    [Fact]
    public void OverlappingPiecesOfOneStrokeDoNotDarkenEachOther()
    {
        var image = new RgbaImage(40, 40, PlotColor.White);
        var half = new PlotColor(0, 0, 0, 128);
        // A polyline doubling back over itself: the overlap must look like a single pass.
        new Canvas(image).StrokePolyline([new(5, 20.5), new(35, 20.5), new(5, 20.5)], 3, half, LinePattern.Solid);

        Assert.InRange(image.GetPixel(20, 20).R, 125, 129);
    }

    [Theory]
    [InlineData(MarkerShape.Circle)]
    [InlineData(MarkerShape.Square)]
    [InlineData(MarkerShape.Triangle)]
    [InlineData(MarkerShape.Diamond)]
    public void Markers_AreFilledAroundTheirCentre(MarkerShape shape)
    {
        var image = new RgbaImage(30, 30, PlotColor.White);
        new Canvas(image).DrawMarker(shape, 15, 15, 10, s_blue);

        Assert.Equal(s_blue, image.GetPixel(15, 15));
        int filled = 0;
        for (int y = 0; y < 30; y++)
        {
            for (int x = 0; x < 30; x++)
            {
                filled += image.GetPixel(x, y) == s_blue ? 1 : 0;
            }
        }

        Assert.InRange(filled, 25, 130);
        Assert.Equal(PlotColor.White, image.GetPixel(1, 1));
    }
}
