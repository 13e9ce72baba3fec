namespace DivCon.Metrics.Statistics;

/// <summary>A two-sided confidence interval [<see cref="Lower"/>, <see cref="Upper"/>].</summary>
public readonly record struct ConfidenceInterval(double Lower, double Upper)
{
    /// <summary>Half the width: the "±" of "mean ± half-width" for a symmetric interval.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double HalfWidth => (Upper - Lower) / 2;

    /// <summary>Whether <paramref name="value"/> lies inside the interval (bounds included).</summary>
    public bool Contains(double value) => value >= Lower && value <= Upper;
}
