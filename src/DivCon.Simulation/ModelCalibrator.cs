using System.Diagnostics;
using System.Globalization;
using DivCon.Skeletons;

namespace DivCon.Simulation;

/// <summary>
/// Turns a phase profile measured by the D&amp;C skeleton's <see cref="PhaseProfiler"/> (per level: call counts and
/// cumulative split / execute / merge time) into a <see cref="ProgramModel"/>: <see cref="Profile"/> measures a
/// program one task at a time, <see cref="Calibrate"/> (pure) builds the model.
/// </summary>
public static class ModelCalibrator
{
    /// <summary>
    /// Profiles <paramref name="runs"/> runs of one program (after one warm-up) on a scheduler that runs one task at a
    /// time, so the muscle times are those of a lone core, and calibrates its model.
    /// </summary>
    /// <param name="name">The program's name (one of <see cref="KnownGrowth"/>'s).</param>
    /// <param name="branchingFactor">Subproblems per split.</param>
    /// <param name="problemSize">Its top-level problem size.</param>
    /// <param name="profiler">The profiler the program reports to.</param>
    /// <param name="run">One parallel run on the given scheduler.</param>
    /// <param name="verify">Throws unless the last run's result is correct.</param>
    /// <param name="runs">Profiled runs.</param>
    /// <param name="note">How it was profiled (size, granularity), for the model's source line.</param>
    /// <param name="cancellationToken">Cancels a run.</param>
    public static ProgramModel Profile(string name, int branchingFactor, long problemSize, PhaseProfiler profiler,
        Func<TaskScheduler, CancellationToken, Task> run, Action verify, int runs, string note, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(profiler);
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(verify);
        Growth growth = KnownGrowth(name) ?? throw new InvalidOperationException($"No growth law for '{name}'.");
        var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, maxConcurrencyLevel: 1);
        run(pair.ConcurrentScheduler, cancellationToken).GetAwaiter().GetResult(); // warm-up (JIT, caches)
        verify();
        // Each run profiled on its own. The machine may be shared and overloaded: wall-clock muscle times then include
        // the time other processes held the core. One task runs at a time, so the process's CPU time over the run is
        // the run's own work; each run's profile is scaled by its CPU / wall ratio (interference is taken as uniform
        // over the run), and per level and phase the minimum over the runs is kept, as is the smallest CPU time of a
        // whole run. (CPU time also counts the runtime's own threads, GC included: a few percent at most.)
        var snapshots = new List<IReadOnlyList<PhaseLevelStatistics>>();
        double bestRunNs = double.MaxValue;
        var process = Process.GetCurrentProcess();
        for (int k = 0; k < runs; k++)
        {
            profiler.Reset();
            process.Refresh();
            TimeSpan cpuStart = process.TotalProcessorTime;
            long start = Stopwatch.GetTimestamp();
            run(pair.ConcurrentScheduler, cancellationToken).GetAwaiter().GetResult();
            TimeSpan wall = Stopwatch.GetElapsedTime(start);
            process.Refresh();
            TimeSpan cpu = process.TotalProcessorTime - cpuStart;
            bestRunNs = Math.Min(bestRunNs, (cpu < wall ? cpu : wall).Ticks * 100.0);
            snapshots.Add(Scale(profiler.Snapshot(), Math.Clamp(cpu / wall, 0.01, 1.0)));
        }

        verify();
        pair.Complete();
        string source = string.Create(CultureInfo.InvariantCulture,
            $"calibrated by 'divcon simulate calibrate' from phase profiles of {runs} runs (each scaled by its CPU/wall time ratio, then the minimum per level and phase) at {note}, one task at a time) on a {Environment.ProcessorCount}-core {System.Runtime.InteropServices.RuntimeInformation.OSDescription.Trim()} machine");
        return Calibrate(name, branchingFactor, problemSize, MinimumPerLevel(snapshots), 1, bestRunNs, growth, source);
    }

    /// <summary>The snapshot with every time multiplied by <paramref name="factor"/>.</summary>
    public static IReadOnlyList<PhaseLevelStatistics> Scale(IReadOnlyList<PhaseLevelStatistics> snapshot, double factor) =>
        snapshot.Select(l => l with { SplitTime = l.SplitTime * factor, ExecuteTime = l.ExecuteTime * factor, MergeTime = l.MergeTime * factor }).ToArray();

    /// <summary>Per level: the counts of the first snapshot and, per phase, the smallest cumulative time of any snapshot.</summary>
    public static IReadOnlyList<PhaseLevelStatistics> MinimumPerLevel(IReadOnlyList<IReadOnlyList<PhaseLevelStatistics>> snapshots)
    {
        ArgumentNullException.ThrowIfNull(snapshots);
        int levels = snapshots.Min(s => s.Count);
        var result = new PhaseLevelStatistics[levels];
        for (int i = 0; i < levels; i++)
        {
            result[i] = snapshots[0][i] with
            {
                SplitTime = snapshots.Min(s => s[i].SplitTime),
                ExecuteTime = snapshots.Min(s => s[i].ExecuteTime),
                MergeTime = snapshots.Min(s => s[i].MergeTime),
            };
        }

        return result;
    }

    /// <summary>How a program's work grows with its size, and its split shape, for the five samples.</summary>
    /// <param name="WorkExponent">Work ∝ size^exponent.</param>
    /// <param name="WorkLogFactor">Work also ∝ log size.</param>
    /// <param name="Imbalance">Random split fractions, or null.</param>
    public sealed record Growth(double WorkExponent, bool WorkLogFactor, ImbalanceModel? Imbalance);

    /// <summary>
    /// The growth laws of the catalogue's programs: sum of squares and π are linear; the sorts n log n (quicksort's
    /// median-of-100 pivot splits within about ±0.1 of the middle: a sample median of 100 uniform values has a standard
    /// deviation of 0.05, so [0.4, 0.6] covers ±2 σ); Strassen n^log₂7 in the matrix order, i.e. size^(log₂7 / 2) in
    /// matrix elements. Null for a name not in the catalogue.
    /// </summary>
    public static Growth? KnownGrowth(string program) => program switch
    {
        "sumofsquares" => new Growth(1, false, null),
        "montecarlopi" => new Growth(1, false, null),
        "quicksort" => new Growth(1, true, new ImbalanceModel(0.4, 0.6)),
        "mergesort" => new Growth(1, true, null),
        "strassen" => new Growth(Math.Log2(7) / 2, false, null),
        _ => null,
    };

    /// <summary>
    /// A model from <paramref name="levels"/>, the profiler's snapshot after <paramref name="runs"/> runs (times are
    /// divided by the runs). <paramref name="wholeRunNs"/>, the mean time of one run on a one-worker scheduler, is kept
    /// as <see cref="ProgramModel.OutsideMusclesNs"/> minus the muscles (information only: it is task overhead and
    /// machine noise, which the simulator models with its own parameters, not a sequential part).
    /// <see cref="ProgramModel.LevelGrowth"/> is the geometric mean level-to-level ratio of split+merge time over the
    /// split levels (clamped to [¼, 8]), or 1 with fewer than two.
    /// </summary>
    /// <exception cref="ArgumentException">The profile is empty, has no execute call, or an argument is out of range.</exception>
    public static ProgramModel Calibrate(
        string name,
        int branchingFactor,
        long problemSize,
        IReadOnlyList<PhaseLevelStatistics> levels,
        int runs,
        double wholeRunNs,
        Growth growth,
        string source)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(levels);
        ArgumentNullException.ThrowIfNull(growth);
        ArgumentOutOfRangeException.ThrowIfLessThan(branchingFactor, 2);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(problemSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(runs);
        if (levels.Count == 0 || levels.All(l => l.ExecuteCount == 0))
        {
            throw new ArgumentException("The profile has no execute call: was the profiler attached to the runs?", nameof(levels));
        }

        static double Ns(TimeSpan t, int runs) => t.Ticks * 100.0 / runs;

        var profile = levels
            .Select(l => new LevelProfile(
                l.Level,
                l.SplitCount / runs,
                Ns(l.SplitTime, runs),
                l.ExecuteCount / runs,
                Ns(l.ExecuteTime, runs),
                l.MergeCount / runs,
                Ns(l.MergeTime, runs)))
            .ToArray();

        // Growth per level below the profile: the geometric mean of the level-to-level ratios of split+merge time over
        // every split level (a log-linear fit through the first and last levels: robust to one noisy level).
        LevelProfile[] splitLevels = profile.Where(l => l.SplitCount > 0 && l.SplitNs + l.MergeNs > 0).ToArray();
        double growthRatio = 1;
        if (splitLevels.Length >= 2)
        {
            LevelProfile first = splitLevels[0], last = splitLevels[^1];
            double ratio = (last.SplitNs + last.MergeNs) / (first.SplitNs + first.MergeNs);
            growthRatio = Math.Clamp(Math.Pow(ratio, 1.0 / (last.Level - first.Level)), 0.25, 8);
        }

        double muscles = profile.Sum(l => l.SplitNs + l.ExecuteNs + l.MergeNs);
        return new ProgramModel
        {
            Name = name,
            Source = source,
            BranchingFactor = branchingFactor,
            ProblemSize = problemSize,
            WorkExponent = growth.WorkExponent,
            WorkLogFactor = growth.WorkLogFactor,
            Imbalance = growth.Imbalance,
            LevelGrowth = Math.Round(growthRatio, 4),
            OutsideMusclesNs = Math.Max(0, Math.Round(wholeRunNs - muscles)),
            Levels = profile.Select(l => l with
            {
                SplitNs = Math.Round(l.SplitNs),
                ExecuteNs = Math.Round(l.ExecuteNs),
                MergeNs = Math.Round(l.MergeNs),
            }).ToArray(),
        };
    }
}
