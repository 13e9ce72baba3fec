using MathNet.Numerics.Statistics;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// When a program's single-program runs have warmed up (Georges, Buytaert and Eeckhout 2007, §4.2: within an
/// invocation, run until the coefficient of variation of the last k runs falls below a threshold, then take those k):
/// after <c>minWarmup</c> runs that never count, the last <c>window</c> runs are steady once their CV (sample sd / mean)
/// is at most <c>maxCv</c>; a program that never steadies stops after <c>maxExtra</c> further runs, and its last
/// window counts anyway, marked not steady. A pure function of the durations so far; the experiment applies it.
/// </summary>
public static class SteadyState
{
    /// <summary>What to do after the runs so far.</summary>
    public enum Decision
    {
        /// <summary>Run once more.</summary>
        Continue,

        /// <summary>The last window is steady: it is C^SP.</summary>
        Steady,

        /// <summary>The cap is reached without a steady window: the last window is C^SP, not steady.</summary>
        Capped,
    }

    /// <summary>The coefficient of variation of the last <paramref name="window"/> runs; null when there are fewer.</summary>
    public static double? WindowCv(IReadOnlyList<double> runs, int window)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(window);
        if (runs.Count < window)
        {
            return null;
        }

        double[] last = runs.Skip(runs.Count - window).ToArray();
        double mean = last.Mean();
        return window < 2 ? 0 : mean > 0 ? last.StandardDeviation() / mean : double.PositiveInfinity;
    }

    /// <summary>The decision after <paramref name="runs"/> (all of them, warm-up included, in order).</summary>
    /// <exception cref="ArgumentOutOfRangeException">A negative count, a window below 1 or a CV threshold not positive.</exception>
    public static Decision Decide(IReadOnlyList<double> runs, int minWarmup, int window, double maxCv, int maxExtra)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentOutOfRangeException.ThrowIfNegative(minWarmup);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(window);
        ArgumentOutOfRangeException.ThrowIfNegative(maxExtra);
        if (!(maxCv > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(maxCv), maxCv, "The CV threshold must be positive.");
        }

        int counted = runs.Count - minWarmup;
        if (counted < window)
        {
            return Decision.Continue;
        }

        return WindowCv(runs, window) <= maxCv ? Decision.Steady : counted >= window + maxExtra ? Decision.Capped : Decision.Continue;
    }
}
