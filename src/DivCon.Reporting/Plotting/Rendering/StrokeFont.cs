using System.Globalization;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>DivCon's own single-stroke vector font. Each glyph is a few polylines (with elliptic arcs) on a grid
/// where the baseline is y = 0, capitals and digits are 10 units tall, lower case 7, descenders reach −3;
/// drawn with round caps and joins, it scales to any size and any rotation. The em (the pixel "size") is
/// <see cref="EmUnits"/> units. It covers printable ASCII plus ± · ° µ × ² ³ Δ − (U+2212) and the en dash;
/// any other character is drawn as an empty box (<see cref="IsSupported"/> tells which).</summary>
internal static partial class StrokeFont
{
    /// <summary>Font units per em: a 14 px font has 10 px capitals.</summary>
    public const double EmUnits = 14;

    /// <summary>Height of capitals and digits in font units.</summary>
    public const double CapHeight = 10;

    /// <summary>Depth of descenders in font units.</summary>
    public const double Descent = 3;

    /// <summary>Space between the ink boxes of neighbouring glyphs, in font units.</summary>
    private const double Tracking = 2.8;

    private static readonly Dictionary<char, Glyph> s_glyphs = BuildGlyphs();

    private static readonly Glyph s_missing = Parse(5, "0,0 5,0 5,10 0,10 0,0");

    /// <summary>Every character with its own glyph (the space included).</summary>
    public static IEnumerable<char> SupportedCharacters => s_glyphs.Keys.Order();

    /// <summary>Whether <paramref name="c"/> has its own glyph (others are drawn as a box).</summary>
    public static bool IsSupported(char c) => s_glyphs.ContainsKey(c);

    /// <summary>The stroke width in pixels for text of <paramref name="sizePx"/>.</summary>
    public static double StrokeWidth(double sizePx, bool bold) => Math.Max(0.9, sizePx * (bold ? 0.125 : 0.085));

    /// <summary>The advance width of <paramref name="text"/> at <paramref name="sizePx"/>, in pixels.</summary>
    public static double MeasureWidth(string text, double sizePx)
    {
        double units = 0;
        foreach (char c in text)
        {
            units += GlyphFor(c).Width + Tracking;
        }

        return text.Length == 0 ? 0 : (units - Tracking) * sizePx / EmUnits;
    }

    /// <summary>Height of capitals in pixels at <paramref name="sizePx"/>.</summary>
    public static double CapHeightPx(double sizePx) => CapHeight * sizePx / EmUnits;

    /// <summary>Depth of descenders in pixels at <paramref name="sizePx"/>.</summary>
    public static double DescentPx(double sizePx) => Descent * sizePx / EmUnits;

    /// <summary>Appends the strokes of <paramref name="text"/> in pixel space: the baseline starts at
    /// <paramref name="origin"/>, the text advances along angle <paramref name="angleDegrees"/> (0 = left to
    /// right, 90 = bottom to top), y of the image pointing down.</summary>
    public static void AppendSegments(string text, double sizePx, PointD origin, double angleDegrees, List<Segment> output)
    {
        double scale = sizePx / EmUnits;
        double theta = angleDegrees * Math.PI / 180;
        double cos = Math.Cos(theta), sin = Math.Sin(theta);
        // Advance direction (cos, -sin); "up" of the glyphs (-sin, -cos): y of the image points down.
        PointD Map(double u, double w) => new(
            origin.X + (u * cos - w * sin) * scale,
            origin.Y + (-u * sin - w * cos) * scale);

        double pen = 0;
        foreach (char c in text)
        {
            Glyph glyph = GlyphFor(c);
            foreach (PointD[] stroke in glyph.Strokes)
            {
                if (stroke.Length == 1)
                {
                    PointD p = Map(pen + stroke[0].X, stroke[0].Y);
                    output.Add(new Segment(p, p));
                    continue;
                }

                for (int i = 1; i < stroke.Length; i++)
                {
                    output.Add(new Segment(
                        Map(pen + stroke[i - 1].X, stroke[i - 1].Y),
                        Map(pen + stroke[i].X, stroke[i].Y)));
                }
            }

            pen += glyph.Width + Tracking;
        }
    }

    private static Glyph GlyphFor(char c) => s_glyphs.TryGetValue(c, out Glyph? g) ? g : s_missing;

    /// <summary>One glyph: its ink width in font units (the advance adds the tracking) and its polylines.</summary>
    private sealed record Glyph(double Width, PointD[][] Strokes);

    /// <summary>Parses a glyph: strokes separated by ';', each a run of points "x,y" and elliptic arcs
    /// "@cx,cy,rx,ry,a0,a1" (degrees, counter-clockwise from +x, swept from a0 to a1 in either direction)
    /// joined in order into one polyline.</summary>
    private static Glyph Parse(double width, string definition)
    {
        var strokes = new List<PointD[]>();
        foreach (string strokeText in definition.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var points = new List<PointD>();
            foreach (string item in strokeText.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                if (item[0] == '@')
                {
                    double[] v = Numbers(item[1..], 6);
                    double sweep = v[5] - v[4];
                    int steps = Math.Max(2, (int)Math.Ceiling(Math.Abs(sweep) / 10));
                    for (int i = 0; i <= steps; i++)
                    {
                        double a = (v[4] + sweep * i / steps) * Math.PI / 180;
                        points.Add(new PointD(v[0] + v[2] * Math.Cos(a), v[1] + v[3] * Math.Sin(a)));
                    }
                }
                else
                {
                    double[] v = Numbers(item, 2);
                    points.Add(new PointD(v[0], v[1]));
                }
            }

            strokes.Add([.. points]);
        }

        return new Glyph(width, [.. strokes]);
    }

    private static double[] Numbers(string text, int count)
    {
        string[] parts = text.Split(',');
        if (parts.Length != count)
        {
            throw new InvalidOperationException($"Glyph item '{text}' needs {count} numbers.");
        }

        return [.. parts.Select(p => double.Parse(p, CultureInfo.InvariantCulture))];
    }

    /// <summary>A glyph made from another, scaled by <paramref name="scale"/> and raised by
    /// <paramref name="raise"/> units (superscripts).</summary>
    private static Glyph Derive(Glyph source, double scale, double raise) => new(
        source.Width * scale,
        [.. source.Strokes.Select(s => s.Select(p => new PointD(p.X * scale, p.Y * scale + raise)).ToArray())]);
}
