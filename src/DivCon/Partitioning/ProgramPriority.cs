namespace DivCon.Partitioning;

/// <summary>
/// The one ordering every score-based step uses, so that all policies break ties the same way:
/// lower score first, then higher scalability, then lower program index.
/// </summary>
/// <remarks>
/// The score a_i / share_i equals (a_i / s_i) · (Σs / cores); the factor is the same for every program, so programs
/// are compared by a_i / s_i, which depends on program i's own data only. That keeps the order exact and transitive
/// in floating point and independent of the order in which Σs would have been summed.
/// Keys are rounded to 12 significant digits (<see cref="Quantize"/>): speedups such as 35.68 and 26.76 are not exact
/// in binary, so 12 / 35.68 and 9 / 26.76, equal in decimal, differ in their last bit; rounding makes such decimal
/// ties exact ties, which the scalability and index tie-breaks then settle. Rounding is a
/// function of one value, so the order stays total and transitive.
/// </remarks>
internal static class ProgramPriority
{
    /// <summary>The order key of a program holding <paramref name="cores"/> cores: lower is served first.</summary>
    public static double Key(int cores, double scalability) => Quantize(cores / scalability);

    /// <summary>
    /// <see cref="Compare"/> for unrounded keys (cores / scalability), rounding only when the two are close: rounding
    /// is monotone and its step is below 1e-11 relative, so keys further apart than 1e-10 relative compare the same
    /// rounded or not. For hot paths that would otherwise round every key (idle lending).
    /// </summary>
    public static int CompareRaw(double rawI, double scalabilityI, int i, double rawJ, double scalabilityJ, int j)
    {
        if (Math.Abs(rawI - rawJ) > 1e-10 * Math.Max(Math.Abs(rawI), Math.Abs(rawJ)))
        {
            return rawI < rawJ ? -1 : 1;
        }

        return Compare(Quantize(rawI), scalabilityI, i, Quantize(rawJ), scalabilityJ, j);
    }

    /// <summary><paramref name="x"/> rounded to 12 significant digits (0 stays 0).</summary>
    public static double Quantize(double x)
    {
        if (x == 0 || !double.IsFinite(x))
        {
            return x;
        }

        int digits = 11 - (int)Math.Floor(Math.Log10(Math.Abs(x)));
        return digits is >= 0 and <= 15 ? Math.Round(x, digits) : x;
    }

    /// <summary>
    /// Negative when program <paramref name="i"/> comes before <paramref name="j"/>: lower key, then higher scalability,
    /// then lower index. Never zero for i ≠ j, so every selection built on it is unique.
    /// </summary>
    public static int Compare(double keyI, double scalabilityI, int i, double keyJ, double scalabilityJ, int j)
    {
        int c = keyI.CompareTo(keyJ);
        if (c != 0)
        {
            return c;
        }

        c = scalabilityJ.CompareTo(scalabilityI);
        return c != 0 ? c : i.CompareTo(j);
    }
}
