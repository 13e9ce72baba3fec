using DivCon.Simulation;

namespace DivCon.Tests.Simulation;

/// <summary>Hand-made program models for simulator tests.</summary>
internal static class SimModels
{
    /// <summary>
    /// A perfectly parallel program: binary splits and merges that cost nothing, <paramref name="workNs"/> of execute
    /// time shared equally by the leaves (4 per core by the automatic granularity), plus an optional sequential part.
    /// </summary>
    public static ProgramModel Parallel(string name, double workNs, long sequentialNs = 0, ImbalanceModel? imbalance = null) => new()
    {
        Name = name,
        Source = "test: perfectly parallel",
        BranchingFactor = 2,
        ProblemSize = 1 << 20,
        WorkExponent = 1,
        SequentialNs = sequentialNs,
        Imbalance = imbalance,
        Levels = [new LevelProfile(1, 0, 0, 1, workNs, 0, 0)],
    };

    /// <summary>A D&amp;C program with costly splits and merges at every level (like the sorts) and imbalance.</summary>
    public static ProgramModel Sortlike(string name, double levelNs, double executeNs, int levels = 6, ImbalanceModel? imbalance = null) => new()
    {
        Name = name,
        Source = "test: sort-like",
        BranchingFactor = 2,
        ProblemSize = 1 << 20,
        WorkExponent = 1,
        WorkLogFactor = true,
        Imbalance = imbalance,
        Levels = Enumerable.Range(1, levels)
            .Select(l => new LevelProfile(l, 1L << (l - 1), levelNs / 2, 0, 0, 1L << (l - 1), levelNs / 2))
            .Append(new LevelProfile(levels + 1, 0, 0, 1L << levels, executeNs, 0, 0))
            .ToArray(),
    };
}
