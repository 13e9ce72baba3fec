namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>An axis-aligned rectangle in pixels, [X0, X1] × [Y0, Y1].</summary>
internal readonly record struct RectD(double X0, double Y0, double X1, double Y1)
{
    public double Width => X1 - X0;

    public double Height => Y1 - Y0;

    public bool Contains(double x, double y) => x >= X0 && x <= X1 && y >= Y0 && y <= Y1;

    public bool Intersects(RectD other) => other.X0 <= X1 && other.X1 >= X0 && other.Y0 <= Y1 && other.Y1 >= Y0;

    public RectD Inflate(double d) => new(X0 - d, Y0 - d, X1 + d, Y1 + d);

    /// <summary>The rectangle spanned by two corners in any order.</summary>
    public static RectD FromCorners(double xa, double ya, double xb, double yb) =>
        new(Math.Min(xa, xb), Math.Min(ya, yb), Math.Max(xa, xb), Math.Max(ya, yb));
}
