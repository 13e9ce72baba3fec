using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

/// <summary>
/// The policy's search (cached NTTs, table cursors, block minima) makes exactly the decisions of the plain search in
/// <see cref="HillClimbingReference"/>: the same start, the same moves in the same order with the same predicted ANTTs,
/// the same final shares, over seeded random inputs built to reach every branch (tables and single values, fewer
/// cores than programs, one core, exact ties between programs, flat and peaked tables).
/// </summary>
public sealed class HillClimbingEquivalenceTests
{
    private const int Cases = 1500;

    [Fact]
    public void Compute_MakesTheReferenceSearchsMoves_OnRandomInputs()
    {
        var rng = new Random(1818);
        int withMoves = 0, manyMoves = 0;
        for (int c = 0; c < Cases; c++)
        {
            (int cores, ProgramLoad[] programs) = RandomCase(rng);

            HillClimbingPlan actual = HillClimbingPolicy.Compute(cores, programs);

            HillClimbingPlan expected = HillClimbingReference.Compute(cores, programs);
            AssertSame(expected, actual, $"case {c} ({programs.Length} programs, {cores} cores)");
            withMoves += expected.Moves.Count > 0 ? 1 : 0;
            manyMoves += expected.Moves.Count >= 10 ? 1 : 0;
        }

        // The inputs must exercise the search, not only its start.
        Assert.True(withMoves > Cases / 3, $"only {withMoves} of {Cases} cases made a move");
        Assert.True(manyMoves > Cases / 20, $"only {manyMoves} of {Cases} cases made 10 moves or more");
    }

    [Fact]
    public void Compute_MakesTheReferenceSearchsMoves_AtTheBenchmarksSize()
    {
        // The shape of PartitioningBenchmarks: 1024 cores, 256 programs, non-monotone tables at powers of two.
        var rng = new Random(1024);
        const int cores = 1024;
        var programs = new ProgramLoad[256];
        for (int i = 0; i < programs.Length; i++)
        {
            double s = 1 + (rng.NextDouble() * 30);
            var points = new List<(int, double)>();
            for (int c = 1; c <= cores; c *= 2)
            {
                points.Add((c, Math.Max(0.5, (c / (1 + (c * 0.01 * rng.NextDouble()))) * (0.7 + (0.3 * rng.NextDouble())))));
            }

            programs[i] = new ProgramLoad(i, s, 10_000, new ScalabilityTable(points));
        }

        HillClimbingPlan expected = HillClimbingReference.Compute(cores, programs);

        Assert.True(expected.Moves.Count > 100, $"{expected.Moves.Count} moves");
        AssertSame(expected, HillClimbingPolicy.Compute(cores, programs), "benchmark shape");
    }

    private static void AssertSame(HillClimbingPlan expected, HillClimbingPlan actual, string what)
    {
        Assert.True(expected.Start.Base.SequenceEqual(actual.Start.Base), $"{what}: start differs");
        Assert.True(expected.StartAntt.Equals(actual.StartAntt), $"{what}: start ANTT {actual.StartAntt}, expected {expected.StartAntt}");
        int same = expected.Moves.Zip(actual.Moves).TakeWhile(p => p.First.Equals(p.Second)).Count();
        Assert.True(
            same == expected.Moves.Count && same == actual.Moves.Count,
            $"{what}: {actual.Moves.Count} moves, expected {expected.Moves.Count}; first difference at move {same}: "
            + $"{(same < actual.Moves.Count ? actual.Moves[same].ToString() : "none")}, expected {(same < expected.Moves.Count ? expected.Moves[same].ToString() : "none")}");
        Assert.True(expected.Final.SequenceEqual(actual.Final), $"{what}: final shares differ");
        Assert.True(expected.FinalAntt.Equals(actual.FinalAntt), $"{what}: final ANTT {actual.FinalAntt}, expected {expected.FinalAntt}");
    }

    private static (int Cores, ProgramLoad[] Programs) RandomCase(Random rng)
    {
        int m = rng.Next(0, 6) == 0 ? rng.Next(0, 4) : rng.Next(2, 40);
        int cores = rng.Next(0, 6) switch
        {
            0 => rng.Next(1, Math.Max(2, m)), // fewer cores than programs (or one core)
            1 => Math.Max(1, m + rng.Next(0, 4)), // about one core each: giving one often leaves a program at one
            2 => rng.Next(1, 300),
            _ => rng.Next(Math.Max(1, m), (8 * m) + 2),
        };

        // Tie-prone cases draw speedups from a few values and copy programs, so losses and gains tie exactly.
        bool tieProne = rng.Next(0, 3) == 0;
        var programs = new ProgramLoad[m];
        for (int i = 0; i < m; i++)
        {
            if (tieProne && i > 0 && rng.Next(0, 3) == 0)
            {
                ProgramLoad copy = programs[rng.Next(0, i)];
                programs[i] = new ProgramLoad(i, copy.Scalability, 0, copy.ScalabilityTable);
                continue;
            }

            double s = tieProne ? rng.Next(1, 5) : 0.5 + (rng.NextDouble() * 40);
            ScalabilityTable? table = rng.Next(0, 4) switch
            {
                0 => null, // Amdahl fitted to s
                1 => new ScalabilityTable([(1, 1.0), (Math.Max(2, cores), tieProne ? 1.0 : 0.5 + rng.NextDouble())]), // flat-ish
                _ => RandomTable(rng, cores, tieProne),
            };
            programs[i] = new ProgramLoad(i, s, 0, table);
        }

        return (cores, programs);
    }

    // Points at random core counts (some beyond the cores, some between powers of two), speedups non-monotone.
    private static ScalabilityTable RandomTable(Random rng, int cores, bool tieProne)
    {
        var points = new Dictionary<int, double>();
        int n = rng.Next(1, 9);
        for (int k = 0; k < n; k++)
        {
            int c = rng.Next(0, 3) == 0 ? 1 << rng.Next(0, 11) : rng.Next(1, (2 * cores) + 2);
            points[c] = tieProne ? rng.Next(1, 5) : 0.3 + (rng.NextDouble() * c * 1.2);
        }

        return new ScalabilityTable(points.Select(p => (p.Key, p.Value)));
    }
}
