using System.Collections.Concurrent;
using MathNet.Numerics.Distributions;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// Two-sided Student-t critical values. MathNet's <see cref="StudentT.InvCDF"/> works by root finding (slow and
/// documented as approximate), so values for integer degrees of freedom are cached; the tests pin them to the
/// tabulated quantiles.
/// </summary>
public static class StudentTQuantiles
{
    private static readonly ConcurrentDictionary<(int Df, double Confidence), double> s_cache = new();

    /// <summary>
    /// The critical value t with P(|T| ≤ t) = <paramref name="confidence"/> for <paramref name="degreesOfFreedom"/>
    /// degrees of freedom (for 99 %, the 0.995 quantile). Non-integer degrees of freedom (Welch–Satterthwaite) are
    /// computed directly, without the cache.
    /// </summary>
    public static double TwoSided(double degreesOfFreedom, double confidence = 0.99)
    {
        if (!(degreesOfFreedom > 0) || double.IsNaN(degreesOfFreedom))
        {
            throw new ArgumentOutOfRangeException(nameof(degreesOfFreedom), degreesOfFreedom, "Degrees of freedom must be positive.");
        }

        if (!(confidence > 0 && confidence < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(confidence), confidence, "The confidence level must lie strictly between 0 and 1.");
        }

        double p = 1 - ((1 - confidence) / 2);
        if (double.IsPositiveInfinity(degreesOfFreedom))
        {
            return Normal.InvCDF(0, 1, p);
        }

        if (degreesOfFreedom == Math.Floor(degreesOfFreedom) && degreesOfFreedom <= int.MaxValue)
        {
            return s_cache.GetOrAdd(((int)degreesOfFreedom, confidence), static key => Quantile(key.Df, 1 - ((1 - key.Confidence) / 2)));
        }

        return Quantile(degreesOfFreedom, p);
    }

    /// <summary>
    /// The quantile t(p, df). MathNet's root finder starts from a fixed bracket and fails far in the tail with few
    /// degrees of freedom (a family-wise level such as 0.01/72 with 1 or 2 df, which power planning asks for): there the
    /// closed forms for 1 and 2 df are used, and otherwise a bisection on MathNet's CDF over a bracket widened until it
    /// holds the quantile.
    /// </summary>
    private static double Quantile(double df, double p)
    {
        if (df == 1)
        {
            return Math.Tan(Math.PI * (p - 0.5)); // Cauchy
        }

        if (df == 2)
        {
            return ((2 * p) - 1) / Math.Sqrt(2 * p * (1 - p));
        }

        try
        {
            return StudentT.InvCDF(0, 1, df, p);
        }
        catch (MathNet.Numerics.NonConvergenceException)
        {
            double upper = 10;
            while (StudentT.CDF(0, 1, df, upper) < p && upper < 1e12)
            {
                upper *= 4;
            }

            return MathNet.Numerics.RootFinding.Bisection.FindRoot(t => StudentT.CDF(0, 1, df, t) - p, 0, upper, 1e-10, 500);
        }
    }
}
