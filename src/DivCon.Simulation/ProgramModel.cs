using System.Text.Json.Serialization;

namespace DivCon.Simulation;

/// <summary>
/// A D&amp;C program as the simulator sees it: the shape of its task tree and what each task costs, saved as JSON and
/// editable by hand. Costs are the skeleton's phase profile (§7.3, Figure 7.5): per recursion level, the number of
/// split / execute / merge calls and their cumulative time over one whole run, in nanoseconds.
/// </summary>
/// <remarks>
/// <para><b>How a tree is built</b> (the simulator's tree shape): the root covers the whole problem (work fraction 1).
/// A node at level ℓ whose fraction φ exceeds 1 / b^D (D = the split depth the automatic granularity gives for the
/// simulated core count, <see cref="SplitDepth"/>) is split into b children (fractions φ/b, or φ·w_k with random
/// weights w when <see cref="Imbalance"/> is set); otherwise it is a leaf that executes. A split at level ℓ costs
/// SplitNs(ℓ)·φ, a merge MergeNs(ℓ)·φ, a leaf ExecuteNs·φ: a level's cumulative cost is shared out by work
/// fraction, so a balanced tree at the profiled depth reproduces the profile exactly.</para>
/// <para><b>Other depths</b>: levels below the profile take the deepest profiled level's cost times
/// <see cref="LevelGrowth"/> per extra level; work moved from leaves into extra split/merge levels is taken off
/// the leaves' execute time (and added back when the tree is shallower), so a run's total work stays that of the
/// profile to first order, as the thesis's granularity experiment (Figure 7.1) found over a wide range.</para>
/// </remarks>
public sealed class ProgramModel
{
    /// <summary>The program's name (the catalogue name for the five samples).</summary>
    public required string Name { get; init; }

    /// <summary>Where the numbers come from (a measured profile, with machine and size, or first principles).</summary>
    public required string Source { get; init; }

    /// <summary>Subproblems per split (2 for the sorts, sum of squares and π; 7 for Strassen).</summary>
    public required int BranchingFactor { get; init; }

    /// <summary>Problem size the costs were measured at, in the program's units (elements, points, matrix elements).</summary>
    public required long ProblemSize { get; init; }

    /// <summary>How total work grows with problem size: work ∝ size^exponent (1 for the linear programs, log₂7 / 2 for Strassen in matrix elements).</summary>
    public required double WorkExponent { get; init; }

    /// <summary>Whether work also grows with log(size) (the sorts: n log n).</summary>
    public bool WorkLogFactor { get; init; }

    /// <summary>Target execute muscles per core for the automatic granularity (§4.5.2; default 4).</summary>
    public int MusclesPerCore { get; init; } = 4;

    /// <summary>The per-level profile, level 1 first (the top-level problem).</summary>
    public required IReadOnlyList<LevelProfile> Levels { get; init; }

    /// <summary>Ratio of a level's split/merge cost to the previous level's, for levels below the profile (1 for the sorts, 7/4 for Strassen).</summary>
    public double LevelGrowth { get; init; } = 1;

    /// <summary>Time per run outside the D&amp;C tree, run sequentially before the root (Amdahl's sequential part), ns.</summary>
    public long SequentialNs { get; init; }

    /// <summary>
    /// Information only, not simulated: in the calibration runs, the time of a whole run minus its muscles (task
    /// overhead, scheduling delays on the measuring machine), ns.
    /// </summary>
    public double OutsideMusclesNs { get; init; }

    /// <summary>Random split fractions (quicksort's pivot), or null for balanced splits.</summary>
    public ImbalanceModel? Imbalance { get; init; }

    /// <summary>Σ execute time over all levels, ns.</summary>
    [JsonIgnore]
    public double ExecuteNs => Levels.Sum(l => l.ExecuteNs);

    /// <summary>Total time of one run's muscles in the profile (split + execute + merge) plus the sequential part, ns.</summary>
    [JsonIgnore]
    public double TotalWorkNs => Levels.Sum(l => l.SplitNs + l.ExecuteNs + l.MergeNs) + SequentialNs;

    /// <summary>Every problem with the model, one sentence each; empty when it can be simulated.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        if (string.IsNullOrWhiteSpace(Name))
        {
            problems.Add("A model needs a name.");
        }

        string who = $"Model '{Name}'";
        if (BranchingFactor < 2)
        {
            problems.Add($"{who}: branchingFactor must be at least 2; got {BranchingFactor}.");
        }

        if (ProblemSize < 1)
        {
            problems.Add($"{who}: problemSize must be positive; got {ProblemSize}.");
        }

        if (!(WorkExponent > 0) || !double.IsFinite(WorkExponent))
        {
            problems.Add($"{who}: workExponent must be positive; got {WorkExponent}.");
        }

        if (MusclesPerCore < 1)
        {
            problems.Add($"{who}: musclesPerCore must be at least 1; got {MusclesPerCore}.");
        }

        if (!(LevelGrowth > 0) || !double.IsFinite(LevelGrowth))
        {
            problems.Add($"{who}: levelGrowth must be positive; got {LevelGrowth}.");
        }

        if (SequentialNs < 0)
        {
            problems.Add($"{who}: sequentialNs must not be negative; got {SequentialNs}.");
        }

        if (Levels is null || Levels.Count == 0)
        {
            problems.Add($"{who}: levels must list at least level 1.");
        }
        else
        {
            for (int i = 0; i < Levels.Count; i++)
            {
                LevelProfile l = Levels[i];
                if (l.Level != i + 1)
                {
                    problems.Add($"{who}: levels must be numbered 1, 2, … in order; entry {i} has level {l.Level}.");
                }

                if (l.SplitNs < 0 || l.ExecuteNs < 0 || l.MergeNs < 0 || !double.IsFinite(l.SplitNs + l.ExecuteNs + l.MergeNs))
                {
                    problems.Add($"{who}: level {l.Level} has a negative or non-finite time.");
                }
            }

            if (ExecuteNs <= 0)
            {
                problems.Add($"{who}: the execute time summed over levels must be positive.");
            }
        }

        if (Imbalance is { } imb && (!(imb.MinFraction > 0) || !(imb.MaxFraction >= imb.MinFraction) || imb.MaxFraction >= 1))
        {
            problems.Add($"{who}: imbalance needs 0 < minFraction ≤ maxFraction < 1; got {imb.MinFraction} and {imb.MaxFraction}.");
        }

        return problems;
    }

    /// <summary>
    /// The split depth the automatic granularity gives on <paramref name="cores"/> cores: the smallest D with
    /// b^D ≥ musclesPerCore · cores (GranularityRules.Balanced and .Strassen both give b^⌈log_b target⌉ muscles).
    /// </summary>
    public int SplitDepth(int cores)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        long target = (long)MusclesPerCore * cores;
        int depth = 0;
        long power = 1;
        while (power < target)
        {
            power *= BranchingFactor;
            depth++;
        }

        return depth;
    }

    /// <summary>
    /// This model for problem size <paramref name="size"/>: every time multiplied by (size / ProblemSize)^WorkExponent,
    /// and by log(size) / log(ProblemSize) when <see cref="WorkLogFactor"/> is set.
    /// </summary>
    public ProgramModel ScaledTo(long size)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(size);
        double factor = Math.Pow((double)size / ProblemSize, WorkExponent);
        if (WorkLogFactor && ProblemSize > 1 && size > 1)
        {
            factor *= Math.Log(size) / Math.Log(ProblemSize);
        }

        return new ProgramModel
        {
            Name = Name,
            Source = $"{Source}; scaled from size {ProblemSize} to {size} (x{factor:0.####})",
            BranchingFactor = BranchingFactor,
            ProblemSize = size,
            WorkExponent = WorkExponent,
            WorkLogFactor = WorkLogFactor,
            MusclesPerCore = MusclesPerCore,
            LevelGrowth = LevelGrowth,
            SequentialNs = (long)Math.Round(SequentialNs * factor),
            OutsideMusclesNs = OutsideMusclesNs * factor,
            Imbalance = Imbalance,
            Levels = Levels.Select(l => l with { SplitNs = l.SplitNs * factor, ExecuteNs = l.ExecuteNs * factor, MergeNs = l.MergeNs * factor }).ToArray(),
        };
    }
}
