namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Maps data values on one axis to pixels: [<see cref="Min"/>, <see cref="Max"/>] onto
/// [<see cref="PixelStart"/>, <see cref="PixelEnd"/>] (PixelEnd &lt; PixelStart for a y axis, which grows
/// upwards), linearly in the value or in its logarithm.</summary>
internal sealed class AxisMap
{
    private readonly double _tMin, _tMax;

    public AxisMap(AxisScale scale, double min, double max, double pixelStart, double pixelEnd)
    {
        Scale = scale;
        Min = min;
        Max = max;
        PixelStart = pixelStart;
        PixelEnd = pixelEnd;
        _tMin = Transform(min);
        _tMax = Transform(max);
    }

    public AxisScale Scale { get; }

    public double Min { get; }

    public double Max { get; }

    public double PixelStart { get; }

    public double PixelEnd { get; }

    /// <summary>Whether <paramref name="value"/> can be placed on this axis: finite, and positive on a
    /// logarithmic axis.</summary>
    public bool CanMap(double value) => double.IsFinite(value) && (Scale == AxisScale.Linear || value > 0);

    /// <summary>The pixel coordinate of <paramref name="value"/> (NaN when <see cref="CanMap"/> is false);
    /// values outside the range map outside the pixel range.</summary>
    public double ToPixel(double value)
    {
        if (!CanMap(value))
        {
            return double.NaN;
        }

        return PixelStart + (Transform(value) - _tMin) / (_tMax - _tMin) * (PixelEnd - PixelStart);
    }

    /// <summary>The data value at pixel coordinate <paramref name="pixel"/>.</summary>
    public double FromPixel(double pixel)
    {
        double t = _tMin + (pixel - PixelStart) / (PixelEnd - PixelStart) * (_tMax - _tMin);
        return Scale switch
        {
            AxisScale.Log10 => Math.Pow(10, t),
            AxisScale.Log2 => Math.Pow(2, t),
            _ => t,
        };
    }

    private double Transform(double v) => Scale switch
    {
        AxisScale.Log10 => Math.Log10(v),
        AxisScale.Log2 => Math.Log2(v),
        _ => v,
    };

    /// <summary>The displayed range for data spanning [<paramref name="lo"/>, <paramref name="hi"/>]: padded by
    /// <paramref name="padFraction"/> of the span on each side (in log space for log scales); a zero span is
    /// widened (±10 % of the value, ±1 around zero, a factor 2 either way on a log axis).</summary>
    public static (double Min, double Max) PaddedRange(AxisScale scale, double lo, double hi, double padFraction)
    {
        if (scale == AxisScale.Linear)
        {
            if (hi - lo <= Math.Abs(hi) * 1e-12)
            {
                double half = lo == 0 ? 1 : Math.Abs(lo) * 0.1;
                return (lo - half, hi + half);
            }

            double pad = (hi - lo) * padFraction;
            return (lo - pad, hi + pad);
        }

        double tLo = Math.Log2(lo), tHi = Math.Log2(hi);
        if (tHi - tLo < 1e-12)
        {
            return (lo / 2, hi * 2);
        }

        double tPad = (tHi - tLo) * padFraction;
        return (Math.Pow(2, tLo - tPad), Math.Pow(2, tHi + tPad));
    }
}
