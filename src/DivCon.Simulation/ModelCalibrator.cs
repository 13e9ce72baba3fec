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
            double factor = Math.Clamp(cpu / wall, 0.01, 1.0);
            snapshots.Add(profiler.Snapshot()
                .Select(l => l with { SplitTime = l.SplitTime * factor, ExecuteTime = l.ExecuteTime * factor, MergeTime = l.MergeTime * factor }).ToArray());
        }

        verify();
        pair.Complete();
        string source = string.Create(CultureInfo.InvariantCulture,
            $"calibrated by 'divcon simulate calibrate' from phase profiles of {runs} runs (each scaled by its CPU/wall time ratio, then the minimum per level and phase) at {note}, one task at a time) on a {Environment.ProcessorCount}-core {System.Runtime.InteropServices.RuntimeInformation.OSDescription.Trim()} machine");
        return Calibrate(name, branchingFactor, problemSize, MinimumPerLevel(snapshots), 1, bestRunNs, growth, source);
    }

    // Per level: the counts of the first snapshot and, per phase, the smallest cumulative time of any snapshot.
    private static PhaseLevelStatistics[] MinimumPerLevel(List<IReadOnlyList<PhaseLevelStatistics>> snapshots) =>
        Enumerable.Range(0, snapshots.Min(s => s.Count)).Select(i => snapshots[0][i] with
        {
            SplitTime = snapshots.Min(s => s[i].SplitTime),
            ExecuteTime = snapshots.Min(s => s[i].ExecuteTime),
            MergeTime = snapshots.Min(s => s[i].MergeTime),
        }).ToArray();

    /// <summary>How a program's work grows with its size, and its split shape, for the five samples.</summary>
    /// <param name="WorkExponent">Work ∝ size^exponent.</param>
    /// <param name="WorkLogFactor">Work also ∝ log size.</param>
    /// <param name="Imbalance">Random split fractions, or null.</param>
    /// <param name="SplitMergeExponent">Split and merge time ∝ size^this (<see cref="ProgramModel.SplitMergeExponent"/>).</param>
    public sealed record Growth(double WorkExponent, bool WorkLogFactor, ImbalanceModel? Imbalance, double SplitMergeExponent = 1);

    /// <summary>
    /// The growth laws of the catalogue's programs: sum of squares and π are linear; the sorts n log n (quicksort's
    /// median-of-100 pivot splits within about ±0.1 of the middle: a sample median of 100 uniform values has a standard
    /// deviation of 0.05, so [0.4, 0.6] covers ±2 σ); Strassen n^log₂7 in the matrix order, i.e. size^(log₂7 / 2) in
    /// matrix elements. Split and merge grow linearly in every one of them: a partition, a merge, a sum or a matrix
    /// addition sweeps its elements once per level. Null for a name not in the catalogue.
    /// </summary>
    public static Growth? KnownGrowth(string program) => program switch
    {
        "sumofsquares" or "montecarlopi" => new Growth(1, false, null),
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

        double Ns(TimeSpan t) => t.Ticks * 100.0 / runs;
        LevelProfile[] profile = [.. levels.Select(l => new LevelProfile(
            l.Level, l.SplitCount / runs, Ns(l.SplitTime), l.ExecuteCount / runs, Ns(l.ExecuteTime), l.MergeCount / runs, Ns(l.MergeTime)))];

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
            SplitMergeExponent = growth.SplitMergeExponent,
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

    /// <summary>
    /// The machine model from a factored measurement of the work-inflation microbenchmark (seed 000 §4), whose memory
    /// intensity is 1 by definition: β = F_P / T_1 at its largest P (the extra work when every core streams), 0 when
    /// negative (no inflation measured).
    /// </summary>
    /// <param name="microbenchmark">Its factored result; needs a point with P ≥ 2.</param>
    /// <param name="parameters">Its M, L, G, R, as text for the record.</param>
    /// <param name="source">How and where it was measured.</param>
    /// <exception cref="ArgumentException">The result has no point with P ≥ 2.</exception>
    public static MachineModel Machine(FactoredProgramResult microbenchmark, string parameters, string source)
    {
        ArgumentNullException.ThrowIfNull(microbenchmark);
        FactoredPoint top = microbenchmark.Points.MaxBy(p => p.P)!;
        if (top.P < 2)
        {
            throw new ArgumentException("Memory contention needs the microbenchmark measured on at least 2 workers.", nameof(microbenchmark));
        }

        return new MachineModel
        {
            Source = source,
            MemoryContention = Math.Round(Math.Max(0, top.Fp / microbenchmark.T1), 4),
            Measurement = new ContentionMeasurement(microbenchmark.Program, parameters, (int)top.P, microbenchmark.T1, top.Tp, top.Ip, top.Fp),
        };
    }

    /// <summary>
    /// Fits a profiled model to a factored measurement of the same program and size (the harness's T_s, T_1, T_P, I_P):
    /// (1) every time is scaled so that the simulated T_1 is the measured one (the profile misses time spent outside
    /// the muscles and may be off when it was taken on a loaded machine); (2) T_s / T_1 is recorded
    /// (<see cref="ProgramModel.BaselineRatio"/>); (3) the memory intensity is found by bisection so that the simulated
    /// F_P / T_1 at the largest measured P equals the measured one (0 when the measured one is not above what the
    /// simulator gives with no contention, or when <paramref name="parameters"/> has no memory contention).
    /// Deterministic.
    /// </summary>
    /// <param name="profiled">The model from the phase profile.</param>
    /// <param name="measured">The factored measurement; P = 1 is needed.</param>
    /// <param name="granularityCores">The core count the measurement's granularity was set for.</param>
    /// <param name="parameters">The simulator's costs, with the machine's memory contention β.</param>
    /// <param name="source">The calibrated model's source line.</param>
    /// <exception cref="ArgumentException">The measurement is of another program.</exception>
    public static CalibrationFit Fit(ProgramModel profiled, FactoredProgramResult measured, int granularityCores, SimulationParameters parameters, string source)
    {
        ArgumentNullException.ThrowIfNull(profiled);
        ArgumentNullException.ThrowIfNull(measured);
        ArgumentNullException.ThrowIfNull(parameters);
        if (measured.Program != profiled.Name)
        {
            throw new ArgumentException($"The measurement is of '{measured.Program}', the model of '{profiled.Name}'.", nameof(measured));
        }

        if (profiled.SplitMergeExponent is null && KnownGrowth(profiled.Name) is { } growth)
        {
            profiled = profiled with { SplitMergeExponent = growth.SplitMergeExponent }; // a model calibrated before the per-phase growth law
        }

        double baselineRatio = measured.Ts / measured.T1;
        double factor = 1;
        for (int step = 0; step < 2; step++)
        {
            // Twice: the simulated T_1 has dispatch costs that do not scale with the work.
            FactoredProgramResult alone = IsolatedSimulation.Factored(profiled.Calibrated(factor, 0, baselineRatio, source), [1], granularityCores, parameters);
            factor *= measured.T1 / alone.T1;
        }

        FactoredPoint top = measured.Points.MaxBy(p => p.P)!;
        int p = (int)top.P;
        double target = top.Fp / measured.T1;
        double Inflation(double intensity)
        {
            FactoredProgramResult sim = IsolatedSimulation.Factored(profiled.Calibrated(factor, intensity, baselineRatio, source), [p], granularityCores, parameters);
            return sim.Points.First(x => (int)x.P == p).Fp / sim.T1;
        }

        double intensity = 0;
        double none = p >= 2 ? Inflation(0) : 0;
        string? note = p < 2 ? "measured on one worker only: no work inflation to fit"
            : parameters.MemoryContention <= 0 ? "the machine model has no memory contention: intensity left at 0"
            : target <= none + NoiseFloor ? "measured F_P is not above the simulator's own overheads: intensity 0"
            : null;
        if (note is null)
        {
            double lo = 0, hi = 1;
            while (Inflation(hi) < target && hi < MaxIntensity)
            {
                lo = hi;
                hi *= 2;
            }

            if (Inflation(hi) < target)
            {
                note = $"even intensity {MaxIntensity} does not inflate it as much as measured";
                lo = hi;
            }

            for (int i = 0; i < 40 && hi - lo > 1e-5; i++)
            {
                double mid = (lo + hi) / 2;
                (lo, hi) = Inflation(mid) < target ? (mid, hi) : (lo, mid);
            }

            intensity = Math.Round((lo + hi) / 2, 4);
        }

        var fitted = new FitMeasurement(p, measured.Ts, measured.T1, top.Tp, top.Ip, top.Fp, Math.Round(factor, 4), Math.Round(p >= 2 ? Inflation(intensity) : 0, 5));
        return new CalibrationFit(profiled.Calibrated(factor, intensity, Math.Round(baselineRatio, 4), source, fitted), note);
    }

    // F_P / T_1 this close to what the simulator gives without contention is not inflation worth fitting.
    private const double NoiseFloor = 1e-4;

    // Bisection bound: a program 64 times as memory-bound as the microbenchmark is a measurement error, not a program.
    private const double MaxIntensity = 64;
}

