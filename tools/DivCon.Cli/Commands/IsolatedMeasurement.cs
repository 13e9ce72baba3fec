using DivCon.Harness.Factored;
using DivCon.Scheduling;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;

namespace DivCon.Cli.Commands;

/// <summary>
/// Each program alone at P = 1 … N on the harness's work-stealing schedulers (<see cref="FactoredMeasurement"/>), with
/// one granularity, the automatic one for N cores, at every P: what <c>divcon factored</c> measures, and the measured
/// side of <c>simulate calibrate</c> and <c>simulate validate</c>.
/// </summary>
internal static class IsolatedMeasurement
{
    /// <summary>
    /// Measures every program of <paramref name="entries"/>, the schedulers sized against <paramref name="budget"/> and
    /// stealing as <paramref name="stealing"/> says (default: any victim); one progress phase per program.
    /// <paramref name="prepare"/> sees each program (by name) after it is made, before it is measured.
    /// </summary>
    public static IReadOnlyList<FactoredProgramResult> Measure(
        IReadOnlyList<ProgramEntry> entries, WorkloadSize size, int seed, int maxWorkers, int runs, int warmup, CpuBudget budget,
        Func<IFactoredMeasurementSource>? sourceFactory, IRunProgress progress, CancellationToken cancellationToken,
        FactoredStealing? stealing = null, Action<string, IWorkloadProgram>? prepare = null)
    {
        var settings = new FactoredSettings(Enumerable.Range(1, maxWorkers).ToArray(), runs, warmup);
        IFactoredMeasurementSource source = sourceFactory?.Invoke() ?? new SchedulerMeasurementSource(stealing: stealing, budget: budget);
        using var disposable = source as IDisposable;
        var results = new List<FactoredProgramResult>();
        foreach (ProgramEntry entry in entries)
        {
            progress.Phase($"{entry.Name} alone, P = 1 … {maxWorkers}: {warmup} warm-up + {runs} rounds", runs);
            progress.Line($"{entry.Name}: preparing the input (size {CommandInput.Name(size)}, seed {seed}) ...");
            int round = 0;
            IWorkloadProgram program = entry.Create(size, seed);
            prepare?.Invoke(entry.Name, program);
            results.Add(FactoredMeasurement.Measure(program, source, settings, line => progress.Advance(++round, line), cancellationToken));
        }

        return results;
    }
}
