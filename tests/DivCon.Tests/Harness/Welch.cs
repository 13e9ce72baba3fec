using MathNet.Numerics.Distributions;
using MathNet.Numerics.Statistics;

namespace DivCon.Tests.Harness;

/// <summary>
/// Welch's unequal-variance t-test, two-sided: the unpaired test the cyclic report once ran, kept here as the baseline
/// the tests show the paired analysis beating (no report uses it).
/// </summary>
internal static class Welch
{
    public static (double T, double DegreesOfFreedom, double P) Test(IReadOnlyCollection<double> a, IReadOnlyCollection<double> b)
    {
        double va = a.Variance() / a.Count, vb = b.Variance() / b.Count;
        double t = (a.Mean() - b.Mean()) / Math.Sqrt(va + vb);
        double df = (va + vb) * (va + vb) / ((va * va / (a.Count - 1)) + (vb * vb / (b.Count - 1)));
        return (t, df, 2 * (1 - StudentT.CDF(0, 1, df, Math.Abs(t))));
    }
}
