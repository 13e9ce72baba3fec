namespace DivCon.Reporting.Plotting;

/// <summary>The check and copy of a series' error bars, for <see cref="LineSeries"/> and <see cref="BarSeries"/>.</summary>
internal static class ErrorBars
{
    /// <summary>Copies of both error lists of series <paramref name="series"/>, or nulls when neither is given.</summary>
    /// <exception cref="ArgumentException">Only one list given; a list without one distance ≥ 0 (or NaN: no error bar)
    /// per each of the <paramref name="count"/> values.</exception>
    public static (double[]? Minus, double[]? Plus) Copy(string series, int count, IReadOnlyList<double>? errorMinus, IReadOnlyList<double>? errorPlus)
    {
        if ((errorMinus is null) != (errorPlus is null))
        {
            throw new ArgumentException($"Series '{series}': give both error lists (equal for symmetric errors) or neither.", nameof(errorMinus));
        }

        foreach (var (errors, parameter) in new[] { (errorMinus, nameof(errorMinus)), (errorPlus, nameof(errorPlus)) })
        {
            if (errors is not null && (errors.Count != count || errors.Any(e => e < 0 || double.IsInfinity(e))))
            {
                throw new ArgumentException(
                    $"Series '{series}': {parameter} must hold one distance ≥ 0 (or NaN) per value; got {string.Join(", ", errors)} for {count} values.", parameter);
            }
        }

        return (errorMinus is null ? null : [.. errorMinus], errorPlus is null ? null : [.. errorPlus]);
    }
}
