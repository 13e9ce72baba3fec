namespace DivCon.Reporting.Plotting;

/// <summary>How an axis maps values to positions.</summary>
public enum AxisScale
{
    /// <summary>Evenly spaced values; ticks at 1, 2 or 5 times a power of ten.</summary>
    Linear,

    /// <summary>Logarithmic; ticks at powers of ten (with 2 and 5 in between over short ranges). Values ≤ 0 are
    /// not drawn.</summary>
    Log10,

    /// <summary>Logarithmic; ticks at powers of two (1, 2, 4, 8, …), for core counts. Values ≤ 0 are not
    /// drawn.</summary>
    Log2,
}
