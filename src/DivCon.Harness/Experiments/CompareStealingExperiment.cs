using System.Diagnostics;
using System.Globalization;
using System.Text;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Results;
using DivCon.Metrics.Statistics;
using DivCon.Scheduling;

namespace DivCon.Harness.Experiments;

/// <summary>
/// Seed 002's comparison of restricted (cache-group-first) and unrestricted work stealing: each program runs R times
/// under each <see cref="StealingScope"/> on a fresh <see cref="WorkStealingTaskScheduler"/> (one discarded warm-up run
/// per program first; the scope order alternates between replications to spread drift over both); the times go into a
/// two-factor (program × scope) full-factorial ANOVA with replications and 90 % intervals.
/// </summary>
public static class CompareStealingExperiment
{
    /// <summary>The two scopes compared, in column order.</summary>
    public static readonly IReadOnlyList<StealingScope> Scopes = [StealingScope.All, StealingScope.CacheGroupFirst];

    /// <summary>Runs the comparison.</summary>
    /// <param name="programs">The programs (rows), at least two.</param>
    /// <param name="size">Their size.</param>
    /// <param name="replications">Runs per program and scope, at least two.</param>
    /// <param name="workers">Workers of each scheduler.</param>
    /// <param name="factory">Builds the scheduler for (scope, workers).</param>
    /// <param name="describe">Note, cache groups and stealing-groups text recorded with the result.</param>
    /// <param name="progress">Where the run says how far it is.</param>
    /// <param name="cancellationToken">Stops between runs.</param>
    /// <param name="budget">The CPU budget the factory's schedulers are sized against, recorded with the result; null: detected at the end.</param>
    public static async Task<CompareStealingResult> RunAsync(
        IReadOnlyList<ProgramEntry> programs, WorkloadSize size, int replications, int workers,
        Func<StealingScope, int, WorkStealingTaskScheduler> factory, (string Note, int CacheGroups, string Groups) describe,
        IRunProgress progress, CancellationToken cancellationToken, CpuBudget? budget = null)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentNullException.ThrowIfNull(progress);
        DateTimeOffset started = DateTimeOffset.UtcNow;
        long start = Stopwatch.GetTimestamp();
        var runs = new List<StealingRun>();
        foreach (ProgramEntry entry in programs)
        {
            progress.Phase($"{entry.Name}: {replications} runs per scope", 1 + (replications * Scopes.Count));
            await RunOnceAsync(entry, size, seed: 0, StealingScope.All, workers, factory, cancellationToken); // warm-up, discarded
            for (int rep = 0; rep < replications; rep++)
            {
                foreach (StealingScope scope in rep % 2 == 0 ? Scopes : Scopes.Reverse())
                {
                    runs.Add(await RunOnceAsync(entry, size, seed: rep + 1, scope, workers, factory, cancellationToken));
                    progress.Advance(1 + (2 * rep) + 1, string.Create(CultureInfo.InvariantCulture, $"{entry.Name} {scope}: {runs[^1].Seconds:0.000} s"));
                }
            }
        }

        string[] rows = programs.Select(e => e.Name).ToArray();
        string[] columns = Scopes.Select(s => s.ToString()).ToArray();
        double[][][] y = rows.Select(r => columns.Select(c => runs.Where(x => x.Program == r && x.Scope == c).Select(x => x.Seconds).ToArray()).ToArray()).ToArray();
        TwoFactorAnovaResult anova = TwoFactorAnova.Analyze(rows, columns, y, confidence: 0.90);
        return new CompareStealingResult(describe.Note, describe.CacheGroups, describe.Groups, workers, size.ToString().ToLowerInvariant(), replications,
            runs, anova, anova.ColumnContrast(1, 0))
        {
            StartedUtc = started,
            ElapsedSeconds = Stopwatch.GetElapsedTime(start).TotalSeconds,
            Machine = MachineInfo.Capture(budget),
        };
    }

    /// <summary><c>compare-stealing.md</c>: per program and scope the mean time and counters, the effects and the ANOVA table.</summary>
    public static string Markdown(CompareStealingResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        static string F(double v) => v.ToString("G4", CultureInfo.InvariantCulture);
        var sb = new StringBuilder();
        sb.AppendLine("# compare-stealing").AppendLine();
        sb.AppendLine(CultureInfo.InvariantCulture, $"{r.Note} Workers: {r.Workers}; size: {r.Size}; replications: {r.Replications}.").AppendLine();
        var cells = new TextTable("program", "scope", "mean time (s)", "steals", "local", "remote", "sched. overhead (s)", "idle (s)", "busy (s)").Align("llrrrrrrr");
        foreach (string p in r.Anova.RowLevels)
        {
            foreach (string c in r.Anova.ColumnLevels)
            {
                var cell = r.Runs.Where(x => x.Program == p && x.Scope == c).ToList();
                cells.Row(p, c, F(cell.Average(x => x.Seconds)), F(cell.Average(x => x.Steals)), F(cell.Average(x => x.LocalSteals)), F(cell.Average(x => x.RemoteSteals)),
                    F(cell.Average(x => x.SchedulingOverheadSeconds)), F(cell.Average(x => x.IdleSeconds)), F(cell.Average(x => x.BusySeconds)));
            }
        }

        sb.Append(cells.Markdown());
        sb.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"## Effects ({r.Anova.Confidence:P0} intervals)").AppendLine();
        var effects = new TextTable("effect", "estimate", "lower", "upper", "significant").Align("lrrrl");
        foreach (EffectInterval e in new[] { r.Anova.GrandMean }.Concat(r.Anova.RowEffects).Concat(r.Anova.ColumnEffects).Append(r.Contrast))
        {
            effects.Row(e.Name, F(e.Effect), F(e.Lower), F(e.Upper), e.IsSignificant ? "yes" : "no");
        }

        sb.Append(effects.Markdown());
        sb.AppendLine().AppendLine("## ANOVA (A = program, B = stealing scope)").AppendLine();
        var anova = new TextTable("source", "SS", "% var", "df", "MS", "F", "p").Align("lrrrrrr");
        foreach (AnovaSource s in r.Anova.Table)
        {
            anova.Row(s.Source, F(s.SumOfSquares), s.PercentOfVariation is double pv ? F(pv) : "", s.DegreesOfFreedom, s.MeanSquare is double ms ? F(ms) : "",
                s.F is double f ? F(f) : "", s.P is double p ? F(p) : "");
        }

        sb.Append(anova.Markdown());
        return sb.ToString();
    }

    private static async Task<StealingRun> RunOnceAsync(
        ProgramEntry entry, WorkloadSize size, int seed, StealingScope scope, int workers, Func<StealingScope, int, WorkStealingTaskScheduler> factory, CancellationToken ct)
    {
        IWorkloadProgram program = entry.Create(size, seed);
        program.Initialize();
        using WorkStealingTaskScheduler scheduler = factory(scope, workers);
        scheduler.ResetStatistics();
        long start = Stopwatch.GetTimestamp();
        await program.RunAsync(scheduler, ct);
        TimeSpan elapsed = Stopwatch.GetElapsedTime(start);
        SchedulerStatistics stats = scheduler.GetStatistics();
        program.Verify();
        return new StealingRun(entry.Name, scope.ToString(), seed, elapsed.TotalSeconds, stats.Steals, stats.LocalSteals, stats.RemoteSteals,
            stats.SchedulingOverhead.TotalSeconds, stats.WaitingTime.TotalSeconds, stats.BusyTime.TotalSeconds);
    }
}
