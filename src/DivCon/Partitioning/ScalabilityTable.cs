namespace DivCon.Partitioning;

/// <summary>
/// A program's measured speedup at several core counts (for example at 1, 2, 4, … N cores). Policies that model
/// non-monotone scalability (SBMP-style hill climbing, thesis §8.2) read it; the others use
/// <see cref="ProgramLoad.Scalability"/> alone.
/// </summary>
public sealed class ScalabilityTable
{
    private readonly int[] _cores;
    private readonly double[] _speedups;

    /// <summary>Creates a table from (cores, speedup) points.</summary>
    /// <param name="points">At least one point; core counts positive and distinct, speedups positive and finite.</param>
    /// <exception cref="ArgumentException">The points break one of the rules above.</exception>
    public ScalabilityTable(IEnumerable<(int Cores, double Speedup)> points)
    {
        ArgumentNullException.ThrowIfNull(points);
        var sorted = points.OrderBy(p => p.Cores).ToArray();
        if (sorted.Length == 0)
        {
            throw new ArgumentException("A scalability table needs at least one (cores, speedup) point.", nameof(points));
        }

        for (int i = 0; i < sorted.Length; i++)
        {
            if (sorted[i].Cores <= 0)
            {
                throw new ArgumentException($"Core counts must be positive; got {sorted[i].Cores}.", nameof(points));
            }

            if (!(sorted[i].Speedup > 0) || double.IsInfinity(sorted[i].Speedup))
            {
                throw new ArgumentException(
                    $"Speedups must be positive and finite; got {sorted[i].Speedup} at {sorted[i].Cores} cores.", nameof(points));
            }

            if (i > 0 && sorted[i].Cores == sorted[i - 1].Cores)
            {
                throw new ArgumentException($"Core count {sorted[i].Cores} appears twice.", nameof(points));
            }
        }

        _cores = sorted.Select(p => p.Cores).ToArray();
        _speedups = sorted.Select(p => p.Speedup).ToArray();
    }

    /// <summary>The measured core counts, ascending.</summary>
    public IReadOnlyList<int> Cores => _cores;

    /// <summary>The speedups, in the order of <see cref="Cores"/>.</summary>
    public IReadOnlyList<double> Speedups => _speedups;

    /// <summary>
    /// The speedup at <paramref name="cores"/> cores: 0 at 0 cores, the measured value at a measured count, linear
    /// interpolation between measured counts (and from (0, 0) below the first), the last value beyond the last.
    /// </summary>
    public double SpeedupAt(int cores)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(cores);
        if (cores == 0)
        {
            return 0;
        }

        return Interpolate(FirstAtLeast(cores), cores);
    }

    /// <summary>
    /// <see cref="SpeedupAt(int)"/> for a caller that walks the core count up and down by small steps (hill climbing):
    /// <paramref name="upper"/> is the index of the first measured count ≥ the last count asked for, found again by
    /// stepping from there instead of a binary search. The same value bit for bit (the same index, the same
    /// arithmetic). Start it with <see cref="FirstAtLeast"/>.
    /// </summary>
    /// <param name="cores">Positive.</param>
    /// <param name="upper">In [0, number of points]; updated to the first measured count ≥ <paramref name="cores"/>.</param>
    internal double SpeedupWithCursor(int cores, ref int upper)
    {
        System.Diagnostics.Debug.Assert(cores > 0 && upper >= 0 && upper <= _cores.Length, "a positive count and a valid cursor");
        int[] counts = _cores;
        int u = upper;
        while (u > 0 && counts[u - 1] >= cores)
        {
            u--;
        }

        while (u < counts.Length && counts[u] < cores)
        {
            u++;
        }

        upper = u;
        return Interpolate(u, cores);
    }

    /// <summary>The index of the first measured count ≥ <paramref name="cores"/> (the number of points when none is).</summary>
    internal int FirstAtLeast(int cores)
    {
        // A hand-written binary search: tables are short and Array.BinarySearch goes through a generic comparer.
        int[] counts = _cores;
        int lo = 0, hi = counts.Length;
        while (lo < hi)
        {
            int mid = (int)((uint)(lo + hi) >> 1);
            if (counts[mid] < cores)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }

        return lo;
    }

    // The speedup at `cores` (positive) given `upper`, the first measured count >= cores.
    private double Interpolate(int upper, int cores)
    {
        if (upper < _cores.Length && _cores[upper] == cores)
        {
            return _speedups[upper];
        }

        if (upper == _cores.Length)
        {
            return _speedups[^1];
        }

        (double c0, double s0) = upper == 0 ? (0.0, 0.0) : (_cores[upper - 1], _speedups[upper - 1]);
        double c1 = _cores[upper], s1 = _speedups[upper];
        return s0 + ((s1 - s0) * (cores - c0) / (c1 - c0));
    }
}
