namespace DivCon.Partitioning;

/// <summary>
/// A program's predicted speedup on c of N cores, the one model the policies that predict share (hill climbing's
/// NTT, the throughput lending rule): its <see cref="ScalabilityTable"/> when it has one, else Amdahl's law fitted to
/// its one measured speedup S(N) = s: parallel fraction f = (1 − 1/s) / (1 − 1/N), clamped to [0, 1], and
/// S(c) = 1 / ((1 − f) + f / c). S(0) = 0. On one core (N = 1) the fit has nothing to fit: S(c) = 1 for c ≥ 1.
/// </summary>
internal static class SpeedupModel
{
    /// <summary>The Amdahl fit's parallel fraction for speedup <paramref name="scalability"/> on <paramref name="totalCores"/> cores.</summary>
    public static double ParallelFraction(double scalability, int totalCores)
        => totalCores <= 1 ? 0 : Math.Clamp((1 - (1 / scalability)) / (1 - (1.0 / totalCores)), 0, 1);

    /// <summary>S(<paramref name="cores"/>) of <paramref name="program"/> on a machine of <paramref name="totalCores"/> cores.</summary>
    public static double Speedup(ProgramLoad program, int cores, int totalCores)
    {
        if (cores <= 0)
        {
            return 0;
        }

        return program.ScalabilityTable is { } table
            ? table.SpeedupAt(cores)
            : Amdahl(ParallelFraction(program.Scalability, totalCores), cores);
    }

    /// <summary>Amdahl's speedup on <paramref name="cores"/> cores for parallel fraction <paramref name="f"/>.</summary>
    public static double Amdahl(double f, int cores) => cores <= 0 ? 0 : 1 / ((1 - f) + (f / cores));
}
