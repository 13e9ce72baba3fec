using System.Globalization;
using ScottPlot;
using ScottPlot.TickGenerators;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>A model axis in ScottPlot's terms. ScottPlot has no logarithmic axis: a log axis is drawn in log units
/// (log2 or log10 of each value) with ticks at whole powers, labelled with the power's value.</summary>
internal static class AxisRendering
{
    /// <summary>The value in plot units: itself on a linear axis, its logarithm on a log axis; NaN when the axis
    /// cannot show it (not finite, or ≤ 0 on a log axis).</summary>
    public static double ToPlot(this Axis axis, double value) => !double.IsFinite(value) ? double.NaN : axis.Scale switch
    {
        AxisScale.Log2 => value > 0 ? Math.Log2(value) : double.NaN,
        AxisScale.Log10 => value > 0 ? Math.Log10(value) : double.NaN,
        _ => value,
    };

    /// <summary>The value at <paramref name="plotValue"/> plot units.</summary>
    public static double FromPlot(this Axis axis, double plotValue) => axis.Scale switch
    {
        AxisScale.Log2 => Math.Pow(2, plotValue),
        AxisScale.Log10 => Math.Pow(10, plotValue),
        _ => plotValue,
    };

    /// <summary>The displayed range in plot units: the fixed limits if set, otherwise the span of the finite
    /// <paramref name="plotValues"/> padded by 5 % each side (a single value widened first), or [0, 1] when there
    /// are none.</summary>
    /// <exception cref="InvalidOperationException">A log axis with fixed limits ≤ 0.</exception>
    public static (double Min, double Max) Limits(Axis axis, string name, IEnumerable<double> plotValues)
    {
        if (axis.Scale != AxisScale.Linear && axis.Min is <= 0)
        {
            throw new InvalidOperationException($"The {name} axis is logarithmic, so its limits must be above zero; got min {axis.Min}.");
        }

        double[] finite = [.. plotValues.Where(double.IsFinite)];
        double lo = finite.Length == 0 ? 0 : finite.Min(), hi = finite.Length == 0 ? 1 : finite.Max();
        if (finite.Length > 0)
        {
            // A span: 5 % each side. One value: ±10 % (±1 around 0) on a linear axis, a factor 2 or 10 either way on a log axis.
            double pad = hi - lo > 0 ? (hi - lo) * 0.05 : axis.Scale != AxisScale.Linear ? 1 : lo == 0 ? 1 : Math.Abs(lo) * 0.1;
            (lo, hi) = (lo - pad, hi + pad);
        }

        return (axis.Min is { } min ? axis.ToPlot(min) : lo, axis.Max is { } max ? axis.ToPlot(max) : hi);
    }

    /// <summary>A value range from zero (bars grow from zero): [min(0, lo), max(0, hi)] padded by 10 % away from
    /// zero, unless the axis has fixed limits.</summary>
    /// <exception cref="InvalidOperationException">The axis is not linear.</exception>
    public static (double Min, double Max) ZeroBasedLimits(Axis axis, IEnumerable<double> values)
    {
        if (axis.Scale != AxisScale.Linear)
        {
            throw new InvalidOperationException($"Axis '{axis.Label}': bars and stacked areas grow from zero, so their value axis must be linear.");
        }

        double[] finite = [.. values.Where(double.IsFinite).Prepend(0)];
        double lo = finite.Min(), hi = finite.Max();
        hi = hi - lo <= 0 ? 1 : hi;
        double pad = (hi - lo) * 0.1;
        return (axis.Min ?? (lo < 0 ? lo - pad : 0), axis.Max ?? (hi > 0 ? hi + pad : 0));
    }

    /// <summary>Sets the label and tick generator of <paramref name="target"/> for <paramref name="axis"/>, shown
    /// over [<paramref name="min"/>, <paramref name="max"/>] plot units.</summary>
    public static void Configure(IAxis target, Axis axis, double min, double max)
    {
        target.Label.Text = axis.Label;
        target.TickGenerator = axis.Scale == AxisScale.Linear
            ? new NumericAutomatic
            {
                IntegerTicksOnly = axis.IntegerTicks,
                MinimumTickSpacing = target.Edge.IsVertical() ? 40 : 50,
                MinorTickGenerator = new EvenlySpacedMinorTickGenerator(axis.IntegerTicks ? 1 : 5),
            }
            : LogTicks(axis, min, max);
    }

    /// <summary>Ticks of a log axis: at whole powers (of 2 or 10) when the range holds three or more, every power up to
    /// eight labels, with minor ticks at 2…9 times each power of ten (none on a log2 axis); over a shorter range of a
    /// log10 axis spanning a decade or more, at 1, 2 and 5 times each power of ten; otherwise at values 1, 2 or 5
    /// times a power of ten apart, placed at their logarithms.</summary>
    private static NumericManual LogTicks(Axis axis, double min, double max)
    {
        var ticks = new NumericManual();
        int first = (int)Math.Ceiling(min), last = (int)Math.Floor(max);
        if (last - first >= 2)
        {
            int every = Math.Max(1, (last - first + 8) / 8);
            for (int k = first - 1; k <= last; k++)
            {
                if (k >= first && (k - first) % every == 0)
                {
                    ticks.AddMajor(k, Format(axis.FromPlot(k)));
                }

                for (int m = 2; axis.Scale == AxisScale.Log10 && every == 1 && m <= 9; m++)
                {
                    double minor = k + Math.Log10(m);
                    if (minor >= min && minor <= max)
                    {
                        ticks.AddMinor(minor);
                    }
                }
            }

            return ticks;
        }

        double lo = axis.FromPlot(min), hi = axis.FromPlot(max);
        if (axis.Scale == AxisScale.Log10 && hi >= 10 * lo)
        {
            // Over a decade or more, evenly spaced values would crowd into the right of the axis and leave its
            // left unlabelled (0.8 to 25: 5, 10, …, 25 only); 1, 2 and 5 times each power of ten spread out as the axis does.
            for (int k = (int)Math.Floor(min); k <= (int)Math.Ceiling(max); k++)
            {
                foreach (double m in (ReadOnlySpan<double>)[1, 2, 5])
                {
                    double position = k + Math.Log10(m);
                    if (position >= min && position <= max)
                    {
                        ticks.AddMajor(position, Format(m * Math.Pow(10, k)));
                    }
                }
            }

            return ticks;
        }

        double raw = (hi - lo) / 8, magnitude = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        double step = new[] { 1.0, 2, 5, 10 }.Select(f => f * magnitude).First(s => s >= raw);
        for (double i = Math.Ceiling(lo / step); i * step <= hi; i++)
        {
            ticks.AddMajor(axis.ToPlot(i * step), Format(i * step));
        }

        return ticks;
    }

    // 0.001, 2.5, 1024; very small or large powers as 1e-5, 1e6.
    private static string Format(double value) => value.ToString(
        value != 0 && (Math.Abs(value) < 1e-4 || Math.Abs(value) >= 1e6) ? "0.##e0" : "0.######", CultureInfo.InvariantCulture);
}
