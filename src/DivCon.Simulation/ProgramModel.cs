using System.Globalization;
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
public sealed record ProgramModel
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

    /// <summary>
    /// How split and merge time grow with problem size when the model is scaled: size^this (1 for the five samples:
    /// a partition, a merge, a sum or a matrix addition sweeps its elements once per level). The execute time then
    /// grows by <see cref="WorkExponent"/>, and for <see cref="WorkLogFactor"/> by the log of the leaves' size, not of
    /// the whole problem (a leaf sorts size / leaves elements). Null: every phase grows by the whole work law.
    /// </summary>
    public double? SplitMergeExponent { get; init; }

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

    /// <summary>
    /// How memory-bound the program's tasks are, relative to the work-inflation microbenchmark (seed 000 §4, gap 32,
    /// load 1), whose intensity is 1 by definition; 0 (the default) for work that neither slows others nor is slowed.
    /// A task of intensity m runs 1 + β·m·U times slower than alone, where β is the machine's
    /// <see cref="SimulationParameters.MemoryContention"/> and U the mean intensity of the tasks on the other cores
    /// (docs/simulation.md, "Work inflation"). Calibrated from the program's measured work inflation F_P.
    /// </summary>
    public double MemoryIntensity { get; init; }

    /// <summary>
    /// T_s / T_1 as measured when the model was calibrated: the sequential baseline's time over the parallel program's
    /// on one worker. Speedups against T_s (thesis §7.2) are the simulated T_1 / T_P times this; null when not measured (taken as 1).
    /// </summary>
    public double? BaselineRatio { get; init; }

    /// <summary>Information only: the factored measurement the model was fitted to (T_1 and F_P), or null.</summary>
    public FitMeasurement? FittedTo { get; init; }

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
        problems.AddIf(string.IsNullOrWhiteSpace(Name), "A model needs a name.");

        string who = $"Model '{Name}'";
        problems.AddIf(BranchingFactor < 2, $"{who}: branchingFactor must be at least 2; got {BranchingFactor}.");
        problems.AddIf(ProblemSize < 1, $"{who}: problemSize must be positive; got {ProblemSize}.");
        problems.AddIf(!(WorkExponent > 0) || !double.IsFinite(WorkExponent), $"{who}: workExponent must be positive; got {WorkExponent}.");

        problems.AddIf(SplitMergeExponent is { } sme && (!(sme > 0) || !double.IsFinite(sme)),
            $"{who}: splitMergeExponent must be positive; got {SplitMergeExponent}.");

        problems.AddIf(MusclesPerCore < 1, $"{who}: musclesPerCore must be at least 1; got {MusclesPerCore}.");
        problems.AddIf(!(LevelGrowth > 0) || !double.IsFinite(LevelGrowth), $"{who}: levelGrowth must be positive; got {LevelGrowth}.");
        problems.AddIf(SequentialNs < 0, $"{who}: sequentialNs must not be negative; got {SequentialNs}.");

        if (Levels is null || Levels.Count == 0)
        {
            problems.Add($"{who}: levels must list at least level 1.");
        }
        else
        {
            for (int i = 0; i < Levels.Count; i++)
            {
                LevelProfile l = Levels[i];
                problems.AddIf(l.Level != i + 1, $"{who}: levels must be numbered 1, 2, … in order; entry {i} has level {l.Level}.");
                problems.AddIf(l.SplitNs < 0 || l.ExecuteNs < 0 || l.MergeNs < 0 || !double.IsFinite(l.SplitNs + l.ExecuteNs + l.MergeNs), $"{who}: level {l.Level} has a negative or non-finite time.");
            }

            problems.AddIf(ExecuteNs <= 0, $"{who}: the execute time summed over levels must be positive.");
        }

        problems.AddIf(!(MemoryIntensity >= 0) || !double.IsFinite(MemoryIntensity), $"{who}: memoryIntensity must be 0 or more; got {MemoryIntensity}.");
        problems.AddIf(BaselineRatio is { } ratio && (!(ratio > 0) || !double.IsFinite(ratio)), $"{who}: baselineRatio must be positive; got {BaselineRatio}.");

        problems.AddIf(Imbalance is { } imb && (!(imb.MinFraction > 0) || !(imb.MaxFraction >= imb.MinFraction) || imb.MaxFraction >= 1),
            $"{who}: imbalance needs 0 < minFraction ≤ maxFraction < 1; got {Imbalance?.MinFraction} and {Imbalance?.MaxFraction}.");

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
    /// This model for problem size <paramref name="size"/>. Without <see cref="SplitMergeExponent"/> every time is
    /// multiplied by (size / ProblemSize)^WorkExponent, and by log(size) / log(ProblemSize) when
    /// <see cref="WorkLogFactor"/> is set. With it, split and merge times are multiplied by
    /// (size / ProblemSize)^SplitMergeExponent and execute times by (size / ProblemSize)^WorkExponent, times
    /// log(size / L) / log(ProblemSize / L) when <see cref="WorkLogFactor"/> is set, L being the profile's execute calls
    /// (the leaves grow, their number does not). <see cref="MemoryIntensity"/> is kept: a program is taken to be as
    /// memory-bound at the new size as at the calibrated one (true of sizes that are both far beyond the last-level
    /// cache, as medium and thesis sizes are here; docs/simulation.md).
    /// </summary>
    public ProgramModel ScaledTo(long size)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(size);
        double ratio = (double)size / ProblemSize;
        double whole = Math.Pow(ratio, WorkExponent) * (WorkLogFactor && ProblemSize > 1 && size > 1 ? Math.Log(size) / Math.Log(ProblemSize) : 1);
        double splitMerge = whole, execute = whole;
        if (SplitMergeExponent is { } e)
        {
            splitMerge = Math.Pow(ratio, e);
            double leaves = Math.Max(1, Levels.Sum(l => (double)l.ExecuteCount));
            execute = Math.Pow(ratio, WorkExponent);
            if (WorkLogFactor && ProblemSize / leaves > 1 && size / leaves > 1)
            {
                execute *= Math.Log(size / leaves) / Math.Log(ProblemSize / leaves);
            }
        }

        string source = SplitMergeExponent is null
            ? string.Create(CultureInfo.InvariantCulture, $"{Source}; scaled from size {ProblemSize} to {size} (x{whole:0.####})")
            : string.Create(CultureInfo.InvariantCulture, $"{Source}; scaled from size {ProblemSize} to {size} (split and merge x{splitMerge:0.####}, execute x{execute:0.####})");
        return Copy(size, splitMerge, execute, whole, MemoryIntensity, BaselineRatio, source, FittedTo);
    }

    /// <summary>
    /// This model with every time multiplied by <paramref name="workFactor"/> (the problem size unchanged), the memory
    /// intensity and T_s / T_1 set to <paramref name="memoryIntensity"/> and <paramref name="baselineRatio"/>, and
    /// <paramref name="source"/> as its source, and the measurement <paramref name="fittedTo"/>: what a calibration
    /// against measured T_s, T_1 and F_P makes of a profiled model.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The factor or the ratio is not positive, or the intensity is negative.</exception>
    public ProgramModel Calibrated(double workFactor, double memoryIntensity, double baselineRatio, string source, FitMeasurement? fittedTo = null)
    {
        static void Require(bool valid, double value, string name, string message)
        {
            if (!valid)
            {
                throw new ArgumentOutOfRangeException(name, value, message);
            }
        }

        Require(workFactor > 0 && double.IsFinite(workFactor), workFactor, nameof(workFactor), "The work factor must be finite and positive.");
        Require(memoryIntensity >= 0 && double.IsFinite(memoryIntensity), memoryIntensity, nameof(memoryIntensity),
            "The memory intensity must be finite and 0 or more.");
        Require(baselineRatio > 0 && double.IsFinite(baselineRatio), baselineRatio, nameof(baselineRatio), "The baseline ratio must be finite and positive.");
        ArgumentException.ThrowIfNullOrWhiteSpace(source);
        // Whole ns, as a profile has them; the profile's OutsideMusclesNs stays as measured (information only).
        return Copy(ProblemSize, workFactor, workFactor, workFactor, memoryIntensity, baselineRatio, source, fittedTo, round: true);
    }

    private ProgramModel Copy(
        long size, double splitMergeFactor, double executeFactor, double wholeFactor, double memoryIntensity, double? baselineRatio, string source,
        FitMeasurement? fittedTo, bool round = false)
    {
        double Scale(double ns, double factor) => round ? Math.Round(ns * factor) : ns * factor;
        return this with
        {
            Source = source,
            ProblemSize = size,
            SequentialNs = (long)Math.Round(SequentialNs * wholeFactor),
            OutsideMusclesNs = round ? OutsideMusclesNs : OutsideMusclesNs * wholeFactor,
            MemoryIntensity = memoryIntensity,
            BaselineRatio = baselineRatio,
            FittedTo = fittedTo,
            Levels = Levels.Select(l => l with
            {
                SplitNs = Scale(l.SplitNs, splitMergeFactor),
                ExecuteNs = Scale(l.ExecuteNs, executeFactor),
                MergeNs = Scale(l.MergeNs, splitMergeFactor),
            }).ToArray(),
        };
    }
}
