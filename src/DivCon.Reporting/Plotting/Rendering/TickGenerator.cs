using System.Globalization;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Tick positions and labels for an axis range (invariant culture throughout).
/// Linear: multiples of the smallest step 1, 2 or 5 × 10^k giving at most the requested number of ticks.
/// Log10: powers of ten (every few decades on long ranges; 1-2-5 steps when a range spans about one decade).
/// Log2: powers of two, every second/third/… one on long ranges. A Log10 range too short for two ticks, or a
/// Log2 range holding fewer than three powers of two, falls back to linear ticks (still placed
/// logarithmically). With <c>integerOnly</c> linear steps are at least 1 (core counts) when the range holds two
/// whole numbers.</summary>
internal static class TickGenerator
{
    private const double Epsilon = 1e-9;

    public static IReadOnlyList<Tick> Generate(AxisScale scale, double min, double max, int maxTicks, bool integerOnly = false) => scale switch
    {
        AxisScale.Log10 => Log10(min, max, maxTicks, integerOnly),
        AxisScale.Log2 => Log2(min, max, maxTicks, integerOnly),
        _ => Linear(min, max, maxTicks, integerOnly),
    };

    /// <summary>The smallest 1, 2 or 5 × 10^k step that splits <paramref name="range"/> into at most
    /// <paramref name="maxTicks"/> − 1 intervals.</summary>
    public static double NiceStep(double range, int maxTicks)
    {
        if (!(range > 0) || !double.IsFinite(range))
        {
            return 1;
        }

        double raw = range / Math.Max(1, maxTicks - 1);
        double magnitude = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        foreach (double m in new[] { 1.0, 2.0, 5.0, 10.0 })
        {
            if (m * magnitude >= raw * (1 - Epsilon))
            {
                return m * magnitude;
            }
        }

        return 10 * magnitude;
    }

    public static IReadOnlyList<Tick> Linear(double min, double max, int maxTicks, bool integerOnly = false)
    {
        double step = NiceStep(max - min, maxTicks);
        if (integerOnly && step < 1)
        {
            // Whole steps only when at least two whole numbers lie in range; otherwise an axis with no or one
            // tick would say less than fractional ticks.
            bool twoWhole = Math.Floor(max + Epsilon) - Math.Ceiling(min - Epsilon) >= 1;
            step = twoWhole ? 1 : step;
        }

        var ticks = new List<Tick>();
        double first = Math.Ceiling(min / step - Epsilon);
        double last = Math.Floor(max / step + Epsilon);
        for (double k = first; k <= last && ticks.Count <= 1000; k++)
        {
            double v = k * step;
            if (Math.Abs(v) < step * Epsilon)
            {
                v = 0; // no "-0" and no 1e-17 from rounding
            }

            ticks.Add(new Tick(v, FormatLinear(v, step, Math.Max(Math.Abs(min), Math.Abs(max)))));
        }

        return ticks;
    }

    public static IReadOnlyList<Tick> Log10(double min, double max, int maxTicks, bool integerOnly = false)
    {
        int kMin = (int)Math.Ceiling(Math.Log10(min) - Epsilon);
        int kMax = (int)Math.Floor(Math.Log10(max) + Epsilon);
        int decades = kMax - kMin + 1;
        var ticks = new List<Tick>();
        if (decades >= 3 || (decades == 2 && maxTicks < 4))
        {
            int stride = Math.Max(1, (int)Math.Ceiling(decades / (double)maxTicks));
            for (int k = kMin; k <= kMax; k++)
            {
                if ((k - kMin) % stride == 0)
                {
                    double v = Math.Pow(10, k);
                    ticks.Add(new Tick(v, FormatPlain(v)));
                }
            }

            return ticks;
        }

        // About one decade: 1, 2, 5 × 10^k inside the range.
        for (int k = kMin - 1; k <= kMax; k++)
        {
            foreach (double m in new[] { 1.0, 2.0, 5.0 })
            {
                double v = m * Math.Pow(10, k);
                if (v >= min * (1 - Epsilon) && v <= max * (1 + Epsilon))
                {
                    ticks.Add(new Tick(v, FormatPlain(v)));
                }
            }
        }

        return ticks.Count >= 2 && ticks.Count <= maxTicks ? ticks : Linear(min, max, maxTicks, integerOnly);
    }

    public static IReadOnlyList<Tick> Log2(double min, double max, int maxTicks, bool integerOnly = false)
    {
        int kMin = (int)Math.Ceiling(Math.Log2(min) - Epsilon);
        int kMax = (int)Math.Floor(Math.Log2(max) + Epsilon);
        int count = kMax - kMin + 1;
        if (count < 3)
        {
            // Fewer than three powers of two in range (e.g. speedups 1–1.9): linear steps say more. With
            // integerOnly and no whole step in range, the powers of two are kept.
            IReadOnlyList<Tick> linear = Linear(min, max, maxTicks, integerOnly);
            if (linear.Count >= count)
            {
                return linear;
            }
        }

        int stride = Math.Max(1, (int)Math.Ceiling(count / (double)maxTicks));
        var ticks = new List<Tick>();
        for (int k = kMin; k <= kMax; k++)
        {
            if ((k - kMin) % stride == 0)
            {
                double v = Math.Pow(2, k);
                ticks.Add(new Tick(v, FormatPlain(v)));
            }
        }

        return ticks;
    }

    /// <summary>Unlabelled minor ticks: on a Log10 axis spanning at most eight decades, every m × 10^k
    /// (m = 1 … 9) in range that is not a major tick; none on other scales.</summary>
    public static IReadOnlyList<double> Minor(AxisScale scale, double min, double max, IReadOnlyList<Tick> majors)
    {
        if (scale != AxisScale.Log10 || Math.Log10(max) - Math.Log10(min) > 8)
        {
            return [];
        }

        var minors = new List<double>();
        for (int k = (int)Math.Floor(Math.Log10(min)); k <= (int)Math.Ceiling(Math.Log10(max)); k++)
        {
            for (int m = 1; m <= 9; m++)
            {
                double v = m * Math.Pow(10, k);
                if (v >= min && v <= max && !majors.Any(t => Math.Abs(t.Value - v) <= v * 1e-9))
                {
                    minors.Add(v);
                }
            }
        }

        return minors;
    }

    /// <summary>A value on a linear axis with as many decimals as the step needs; exponent form for very large
    /// or very small magnitudes.</summary>
    public static string FormatLinear(double value, double step, double magnitude)
    {
        if (magnitude >= 1e7 || (step < 1e-4 && magnitude < 1e-3))
        {
            return FormatExponent(value);
        }

        int decimals = step >= 1 ? 0 : (int)Math.Ceiling(-Math.Log10(step) - Epsilon);
        return value.ToString("F" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
    }

    /// <summary>A tick value on a logarithmic axis: plain digits between 0.0001 and a million, exponent form
    /// ("2e-6", "1e9") outside.</summary>
    public static string FormatPlain(double value)
    {
        double magnitude = Math.Abs(value);
        if (value == 0 || (magnitude >= 1e-4 && magnitude < 1e7))
        {
            return value.ToString("0.##########", CultureInfo.InvariantCulture);
        }

        return FormatExponent(value);
    }

    private static string FormatExponent(double value)
    {
        if (value == 0)
        {
            return "0";
        }

        int exponent = (int)Math.Floor(Math.Log10(Math.Abs(value)) + Epsilon);
        double mantissa = Math.Round(value / Math.Pow(10, exponent), 3);
        return mantissa.ToString("0.###", CultureInfo.InvariantCulture) + "e" + exponent.ToString(CultureInfo.InvariantCulture);
    }
}
