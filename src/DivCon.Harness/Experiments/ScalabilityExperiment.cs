using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Scheduling;

namespace DivCon.Harness.Experiments;

/// <summary>
/// Speedup vs cores (thesis §7.2, Figures 7.3–7.4): for each program, T_s from its sequential baseline, then T_P on a
/// work-stealing scheduler with one worker pinned to each of P processors, P = 1 … N, the processors chosen by
/// <see cref="CpuTopology.SelectContiguous"/> or <see cref="CpuTopology.SelectDispersed"/>. The granularity is fixed
/// (automatic for N cores) so every P runs the same task tree. Speedup = mean T_s / mean T_P.
/// </summary>
public static class ScalabilityExperiment
{
    /// <summary>Runs the experiment; <paramref name="progress"/> gets one line per program and curve.</summary>
    /// <param name="settings">Programs, size, runs; <see cref="ExperimentSettings.Processors"/> are the N processors.</param>
    /// <param name="programs">The catalogue the settings' program names come from.</param>
    /// <param name="selections">At least one, no duplicates.</param>
    /// <param name="topology">The machine's topology; must contain every processor of the settings.</param>
    /// <param name="progress">Where the experiment says how far it is.</param>
    /// <param name="cancellationToken">Stops the experiment between runs (and cancels a running one).</param>
    /// <exception cref="ProgramRunException">A program failed, hung or computed a wrong result.</exception>
    public static async Task<ScalabilityResult> RunAsync(
        ExperimentSettings settings, ProgramCatalog programs, IReadOnlyList<ProcessorSelection> selections, CpuTopology topology,
        IRunProgress progress, CancellationToken cancellationToken)
    {
        IsolatedTiming.ThrowIfInvalid(settings, programs, progress);
        ArgumentNullException.ThrowIfNull(selections);
        ArgumentNullException.ThrowIfNull(topology);
        if (selections.Count == 0 || selections.Distinct().Count() != selections.Count || selections.Any(s => !Enum.IsDefined(s)))
        {
            throw new ArgumentException("Selections must be one or more distinct values of ProcessorSelection.", nameof(selections));
        }

        CpuTopology machine = topology.Restrict(settings.Processors);
        int n = machine.Processors.Count;
        var run = await IsolatedTiming.EachProgramAsync(settings, programs, async program =>
        {
            program.UseAutomaticGranularity(n);
            progress.Phase($"{program.Name}: T_s and T_P, P = 1 … {n}", 1 + (selections.Count * n));
            progress.Line($"{program.Name}: sequential baseline ({settings.Runs} runs) ...");
            var ts = new TimedSample(await IsolatedTiming.SequentialAsync(program, settings, cancellationToken));
            var curves = new List<ScalabilityCurve>();
            foreach (ProcessorSelection selection in selections)
            {
                progress.Line($"{program.Name}: {ScalabilityResult.Name(selection)} P = 1 … {n} ...");
                var points = new List<ScalabilityCorePoint>();
                for (int p = 1; p <= n; p++)
                {
                    IReadOnlyList<int> processors = selection == ProcessorSelection.Contiguous ? machine.SelectContiguous(p) : machine.SelectDispersed(p);
                    using var scheduler = IsolatedTiming.Pinned(processors, settings.Budget);
                    var tp = new TimedSample(await IsolatedTiming.ParallelAsync(program, scheduler, settings, cancellationToken));
                    points.Add(new ScalabilityCorePoint(p, processors, scheduler.IsPinned, tp, ts.Mean / tp.Mean));
                    progress.Advance(1 + (curves.Count * n) + p, $"{program.Name}: {ScalabilityResult.Name(selection)} P = {p}: speedup {ts.Mean / tp.Mean:0.00}");
                }

                curves.Add(new ScalabilityCurve(selection, points));
            }

            return new ScalabilityProgramResult(program.Name, program.Granularity, ts, curves);
        });

        return new ScalabilityResult(settings, selections.ToArray(), run.Programs) { StartedUtc = run.StartedUtc, ElapsedSeconds = run.ElapsedSeconds, Machine = run.Machine };
    }
}
