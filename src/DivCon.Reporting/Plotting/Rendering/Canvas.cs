namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Anti-aliased drawing onto an <see cref="RgbaImage"/>. Coordinates are in pixels, x right, y down;
/// pixel (i, j) covers [i, i+1) × [j, j+1), so a 1-pixel line is crisp at y = j + 0.5 (see
/// <see cref="Crisp"/>). Strokes are rendered as distance fields: a pixel's coverage is how far its centre lies
/// inside the stroke's outline (round caps and joins), the maximum over the pieces of one call, then blended
/// once, so overlapping pieces of one line or one text never darken each other. Everything is clipped to
/// <see cref="SetClip"/>.</summary>
internal sealed class Canvas
{
    private readonly RgbaImage _image;
    private int _clipX0, _clipY0, _clipX1, _clipY1; // clip rectangle, [x0, x1) × [y0, y1) in whole pixels

    public Canvas(RgbaImage image)
    {
        _image = image;
        ResetClip();
    }

    public int Width => _image.Width;

    public int Height => _image.Height;

    /// <summary>The centre of the pixel containing <paramref name="v"/>: where 1-pixel lines are sharp.</summary>
    public static double Crisp(double v) => Math.Floor(v) + 0.5;

    /// <summary>Restricts drawing to the pixels whose centres lie in [x0, x1] × [y0, y1].</summary>
    public void SetClip(double x0, double y0, double x1, double y1)
    {
        _clipX0 = Math.Clamp((int)Math.Ceiling(x0 - 0.5), 0, Width);
        _clipY0 = Math.Clamp((int)Math.Ceiling(y0 - 0.5), 0, Height);
        _clipX1 = Math.Clamp((int)Math.Floor(x1 - 0.5) + 1, _clipX0, Width);
        _clipY1 = Math.Clamp((int)Math.Floor(y1 - 0.5) + 1, _clipY0, Height);
    }

    /// <summary>Allows drawing anywhere on the image.</summary>
    public void ResetClip()
    {
        _clipX0 = 0;
        _clipY0 = 0;
        _clipX1 = Width;
        _clipY1 = Height;
    }

    /// <summary>Source-over blend of <paramref name="color"/> at <paramref name="coverage"/> (0–1) into one
    /// pixel, which must lie inside the clip.</summary>
    private void Blend(int x, int y, PlotColor color, double coverage)
    {
        double a = color.A / 255.0 * coverage;
        if (a <= 0)
        {
            return;
        }

        Span<byte> p = _image.Pixels.Slice((y * Width + x) * 4, 4);
        double dstA = p[3] / 255.0;
        double outA = a + dstA * (1 - a);
        p[0] = Mix(color.R, p[0], a, dstA, outA);
        p[1] = Mix(color.G, p[1], a, dstA, outA);
        p[2] = Mix(color.B, p[2], a, dstA, outA);
        p[3] = (byte)Math.Round(outA * 255);
    }

    private static byte Mix(byte src, byte dst, double a, double dstA, double outA) =>
        outA <= 0 ? (byte)0 : (byte)Math.Clamp(Math.Round((src * a + dst * dstA * (1 - a)) / outA), 0, 255);

    /// <summary>Fills the rectangle between the two corners; edge pixels get the covered fraction of their area,
    /// so rectangles on whole-pixel edges are exact and fractional edges are smooth.</summary>
    public void FillRect(double x0, double y0, double x1, double y1, PlotColor color)
    {
        if (x1 < x0)
        {
            (x0, x1) = (x1, x0);
        }

        if (y1 < y0)
        {
            (y0, y1) = (y1, y0);
        }

        int ix0 = Math.Max(_clipX0, (int)Math.Floor(x0));
        int ix1 = Math.Min(_clipX1, (int)Math.Ceiling(x1));
        int iy0 = Math.Max(_clipY0, (int)Math.Floor(y0));
        int iy1 = Math.Min(_clipY1, (int)Math.Ceiling(y1));
        for (int y = iy0; y < iy1; y++)
        {
            double cy = Math.Min(y + 1, y1) - Math.Max(y, y0);
            for (int x = ix0; x < ix1; x++)
            {
                double cx = Math.Min(x + 1, x1) - Math.Max(x, x0);
                Blend(x, y, color, cx * cy);
            }
        }
    }

    /// <summary>Strokes all <paramref name="segments"/> as one shape of width <paramref name="width"/> with
    /// round caps (a zero-length segment is a dot).</summary>
    public void StrokeSegments(IReadOnlyList<Segment> segments, double width, PlotColor color)
    {
        if (segments.Count == 0)
        {
            return;
        }

        double half = width / 2;
        double reach = half + 1;
        double minX = double.MaxValue, minY = double.MaxValue, maxX = double.MinValue, maxY = double.MinValue;
        foreach (Segment s in segments)
        {
            minX = Math.Min(minX, Math.Min(s.A.X, s.B.X));
            minY = Math.Min(minY, Math.Min(s.A.Y, s.B.Y));
            maxX = Math.Max(maxX, Math.Max(s.A.X, s.B.X));
            maxY = Math.Max(maxY, Math.Max(s.A.Y, s.B.Y));
        }

        if (!double.IsFinite(minX + minY + maxX + maxY))
        {
            return;
        }

        int bx0 = Math.Max(_clipX0, (int)Math.Floor(minX - reach));
        int by0 = Math.Max(_clipY0, (int)Math.Floor(minY - reach));
        int bx1 = Math.Min(_clipX1, (int)Math.Ceiling(maxX + reach));
        int by1 = Math.Min(_clipY1, (int)Math.Ceiling(maxY + reach));
        if (bx1 <= bx0 || by1 <= by0)
        {
            return;
        }

        int bw = bx1 - bx0;
        var coverage = new float[bw * (by1 - by0)];
        // A stroke thinner than a pixel is drawn a pixel wide at proportionally lower opacity.
        double peak = Math.Min(1, width);
        double radius = Math.Max(half, 0.5);
        foreach (Segment s in segments)
        {
            int x0 = Math.Max(bx0, (int)Math.Floor(Math.Min(s.A.X, s.B.X) - reach));
            int y0 = Math.Max(by0, (int)Math.Floor(Math.Min(s.A.Y, s.B.Y) - reach));
            int x1 = Math.Min(bx1, (int)Math.Ceiling(Math.Max(s.A.X, s.B.X) + reach));
            int y1 = Math.Min(by1, (int)Math.Ceiling(Math.Max(s.A.Y, s.B.Y) + reach));
            double dx = s.B.X - s.A.X, dy = s.B.Y - s.A.Y;
            double lengthSquared = dx * dx + dy * dy;
            for (int y = y0; y < y1; y++)
            {
                double py = y + 0.5 - s.A.Y;
                for (int x = x0; x < x1; x++)
                {
                    double px = x + 0.5 - s.A.X;
                    double t = lengthSquared > 0 ? Math.Clamp((px * dx + py * dy) / lengthSquared, 0, 1) : 0;
                    double ex = px - t * dx, ey = py - t * dy;
                    double c = Math.Clamp(radius + 0.5 - Math.Sqrt(ex * ex + ey * ey), 0, 1) * peak;
                    int i = (y - by0) * bw + (x - bx0);
                    if (c > coverage[i])
                    {
                        coverage[i] = (float)c;
                    }
                }
            }
        }

        Composite(coverage, bx0, by0, bw, color);
    }

    /// <summary>Strokes the polyline through <paramref name="points"/> with <paramref name="pattern"/>; the dash
    /// phase runs on across vertices.</summary>
    public void StrokePolyline(IReadOnlyList<PointD> points, double width, PlotColor color, LinePattern pattern)
    {
        if (pattern == LinePattern.None || points.Count == 0)
        {
            return;
        }

        var segments = new List<Segment>(points.Count);
        if (points.Count == 1 || pattern == LinePattern.Solid)
        {
            for (int i = 1; i < points.Count; i++)
            {
                segments.Add(new Segment(points[i - 1], points[i]));
            }

            StrokeSegments(segments, width, color);
            return;
        }

        // Dashed: "on" pieces of length `on` separated by gaps of `off`. Dotted: a round dot (a zero-length
        // piece) at the start of the line and after every gap of `off`.
        bool dotted = pattern == LinePattern.Dotted;
        double on = Math.Max(5, 4 * width);
        double off = dotted ? Math.Max(2.5, 2.2 * width) : Math.Max(3.5, 2.5 * width);
        bool drawing = !dotted;
        double left = dotted ? off : on; // length left in the current dash or gap
        if (dotted)
        {
            segments.Add(new Segment(points[0], points[0]));
        }

        for (int i = 1; i < points.Count; i++)
        {
            PointD a = points[i - 1], b = points[i];
            double length = Math.Sqrt((b.X - a.X) * (b.X - a.X) + (b.Y - a.Y) * (b.Y - a.Y));
            double at = 0;
            while (at < length)
            {
                double step = Math.Min(left, length - at);
                if (drawing)
                {
                    segments.Add(new Segment(Lerp(a, b, at / length), Lerp(a, b, (at + step) / length)));
                }

                at += step;
                left -= step;
                if (left <= 1e-9)
                {
                    if (dotted)
                    {
                        PointD p = Lerp(a, b, at / length);
                        segments.Add(new Segment(p, p));
                        left = off;
                    }
                    else
                    {
                        drawing = !drawing;
                        left = drawing ? on : off;
                    }
                }
            }
        }

        StrokeSegments(segments, width, color);
    }

    private static PointD Lerp(PointD a, PointD b, double t) =>
        double.IsFinite(t) ? new PointD(a.X + (b.X - a.X) * t, a.Y + (b.Y - a.Y) * t) : a;

    /// <summary>Fills a disc of radius <paramref name="radius"/>.</summary>
    public void FillDisc(double cx, double cy, double radius, PlotColor color)
    {
        PointD c = new(cx, cy);
        StrokeSegments([new Segment(c, c)], 2 * radius, color);
    }

    /// <summary>Fills a convex polygon whose vertices are given in either winding order.</summary>
    public void FillConvexPolygon(IReadOnlyList<PointD> vertices, PlotColor color)
    {
        if (vertices.Count < 3)
        {
            return;
        }

        double minX = vertices.Min(v => v.X), maxX = vertices.Max(v => v.X);
        double minY = vertices.Min(v => v.Y), maxY = vertices.Max(v => v.Y);
        int bx0 = Math.Max(_clipX0, (int)Math.Floor(minX - 1));
        int by0 = Math.Max(_clipY0, (int)Math.Floor(minY - 1));
        int bx1 = Math.Min(_clipX1, (int)Math.Ceiling(maxX + 1));
        int by1 = Math.Min(_clipY1, (int)Math.Ceiling(maxY + 1));
        if (bx1 <= bx0 || by1 <= by0)
        {
            return;
        }

        // Signed area decides which side of each edge is inside.
        double area = 0;
        for (int i = 0; i < vertices.Count; i++)
        {
            PointD a = vertices[i], b = vertices[(i + 1) % vertices.Count];
            area += a.X * b.Y - b.X * a.Y;
        }

        double sign = area >= 0 ? 1 : -1;
        for (int y = by0; y < by1; y++)
        {
            for (int x = bx0; x < bx1; x++)
            {
                // Signed distance to a convex polygon, approximated by the largest distance outside any edge
                // line (exact along edges, slightly generous at sharp corners).
                double outside = double.MinValue;
                for (int i = 0; i < vertices.Count; i++)
                {
                    PointD a = vertices[i], b = vertices[(i + 1) % vertices.Count];
                    double ex = b.X - a.X, ey = b.Y - a.Y;
                    double len = Math.Sqrt(ex * ex + ey * ey);
                    if (len <= 0)
                    {
                        continue;
                    }

                    double d = sign * ((x + 0.5 - a.X) * ey - (y + 0.5 - a.Y) * ex) / len;
                    outside = Math.Max(outside, d);
                }

                double c = Math.Clamp(0.5 - outside, 0, 1);
                if (c > 0)
                {
                    Blend(x, y, color, c);
                }
            }
        }
    }

    /// <summary>Draws a marker of overall size <paramref name="size"/> (diameter or side) centred on
    /// (<paramref name="cx"/>, <paramref name="cy"/>), with a thin white halo so overlapping markers stay
    /// apart.</summary>
    public void DrawMarker(MarkerShape shape, double cx, double cy, double size, PlotColor color)
    {
        if (shape == MarkerShape.None)
        {
            return;
        }

        DrawMarkerShape(shape, cx, cy, size + 2, PlotColor.White);
        DrawMarkerShape(shape, cx, cy, size, color);
    }

    private void DrawMarkerShape(MarkerShape shape, double cx, double cy, double size, PlotColor color)
    {
        double h = size / 2;
        switch (shape)
        {
            case MarkerShape.Circle:
                FillDisc(cx, cy, h, color);
                break;
            case MarkerShape.Square:
                h *= 0.9; // a square looks larger than a disc of the same width
                FillConvexPolygon([new(cx - h, cy - h), new(cx + h, cy - h), new(cx + h, cy + h), new(cx - h, cy + h)], color);
                break;
            case MarkerShape.Triangle:
                h *= 1.15;
                FillConvexPolygon([new(cx, cy - h), new(cx + h * 0.95, cy + h * 0.7), new(cx - h * 0.95, cy + h * 0.7)], color);
                break;
            case MarkerShape.Diamond:
                h *= 1.2;
                FillConvexPolygon([new(cx, cy - h), new(cx + h, cy), new(cx, cy + h), new(cx - h, cy)], color);
                break;
        }
    }

    /// <summary>Draws <paramref name="text"/> with the anchor (<paramref name="x"/>, <paramref name="y"/>)
    /// placed per the alignments, rotated by <paramref name="angleDegrees"/> (90 = reading bottom to top).</summary>
    public void DrawText(string text, double x, double y, double sizePx, PlotColor color, HAlign h, VAlign v,
        double angleDegrees = 0, bool bold = false)
    {
        if (text.Length == 0)
        {
            return;
        }

        double width = StrokeFont.MeasureWidth(text, sizePx);
        double u = h switch { HAlign.Left => 0, HAlign.Center => -width / 2, _ => -width };
        double w = v switch
        {
            VAlign.Top => -StrokeFont.CapHeightPx(sizePx),
            VAlign.Middle => -StrokeFont.CapHeightPx(sizePx) / 2,
            VAlign.Bottom => StrokeFont.DescentPx(sizePx),
            _ => 0,
        };
        double theta = angleDegrees * Math.PI / 180;
        double cos = Math.Cos(theta), sin = Math.Sin(theta);
        var origin = new PointD(x + u * cos - w * sin, y - u * sin - w * cos);
        var segments = new List<Segment>(text.Length * 6);
        StrokeFont.AppendSegments(text, sizePx, origin, angleDegrees, segments);
        StrokeSegments(segments, StrokeFont.StrokeWidth(sizePx, bold), color);
    }

    private void Composite(float[] coverage, int x0, int y0, int width, PlotColor color)
    {
        for (int i = 0; i < coverage.Length; i++)
        {
            if (coverage[i] > 0)
            {
                Blend(x0 + i % width, y0 + i / width, color, coverage[i]);
            }
        }
    }
}
