namespace DivCon.Partitioning;

/// <summary>
/// The one ordering every score-based step uses, so that all policies break ties the same way (DESIGN.md §4):
/// lower score first, then higher scalability, then lower program index.
/// </summary>
/// <remarks>
/// The score a_i / share_i equals (a_i / s_i) · (Σs / cores); the factor is the same for every program, so programs
/// are compared by a_i / s_i, which depends on program i's own data only. That keeps the order exact and transitive
/// in floating point and independent of the order in which Σs would have been summed.
/// </remarks>
internal static class ProgramPriority
{
    /// <summary>The order key of a program holding <paramref name="cores"/> cores: lower is served first.</summary>
    public static double Key(int cores, double scalability) => cores / scalability;

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
