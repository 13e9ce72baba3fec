using DivCon.Harness.Programs;
using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Factored;

/// <summary>
/// Measures one program in isolation for factored speedups. A skeleton program (<see cref="ISkeletonProgram"/>) gets one
/// granularity for every worker count, the automatic one for the largest (seed 001's T_1 assumes the same task tree at
/// every P), and has a sequential elision; any other program has none. After <see cref="IWorkloadProgram.Initialize"/>
/// (input made before any timing) and the warm-up runs, each repetition times T_s, T_elision and one parallel run per
/// worker count in turn — interleaved, so that a slow period of a shared machine spreads over every quantity instead of
/// biasing one — and checks the first result of each kind with <see cref="IWorkloadProgram.Verify"/> (not timed). Each timed
/// run's cgroup throttling (from the source) is kept beside its time. Then <see cref="FactoredAnalysis.Analyze"/> turns
/// the means into the curves.
/// </summary>
public static class FactoredMeasurement
{
    /// <summary>Measures <paramref name="program"/>; <paramref name="progress"/> gets one line per repetition.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// A worker count or the runs below 1, or negative warm-up runs (the command checks them for the user).
    /// </exception>
    public static FactoredProgramResult Measure(IWorkloadProgram program, IFactoredMeasurementSource source, FactoredSettings settings,
        Action<string>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(settings.Runs);
        ArgumentOutOfRangeException.ThrowIfNegative(settings.WarmupRuns);
        int[] workerCounts = settings.WorkerCounts.Append(1).Distinct().Order().ToArray();
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(workerCounts[0], nameof(settings.WorkerCounts));
        var skeleton = program as ISkeletonProgram;
        skeleton?.UseAutomaticGranularity(workerCounts[^1]);
        program.Initialize();
        for (int w = 0; w < settings.WarmupRuns; w++)
        {
            source.MeasureSequential(program, cancellationToken);
            if (skeleton is not null)
            {
                source.MeasureElision(skeleton, cancellationToken);
            }

            source.MeasureParallel(program, workerCounts[^1], cancellationToken);
        }

        var sequential = new List<(double Seconds, ThrottlingSample? Throttling)>();
        var elision = new List<(double Seconds, ThrottlingSample? Throttling)>();
        var parallel = workerCounts.ToDictionary(p => p, _ => new List<ParallelRunSample>());
        for (int run = 0; run < settings.Runs; run++)
        {
            sequential.Add(source.MeasureSequential(program, cancellationToken));
            if (skeleton is not null)
            {
                elision.Add(source.MeasureElision(skeleton, cancellationToken));
                if (run == 0)
                {
                    program.Verify();
                }
            }

            foreach (int p in workerCounts)
            {
                parallel[p].Add(source.MeasureParallel(program, p, cancellationToken));
                if (run == 0)
                {
                    program.Verify();
                }
            }

            progress?.Invoke($"{program.Name}: run {run + 1}/{settings.Runs} done (T_s {sequential[^1].Seconds:0.000} s, "
                + string.Join(", ", workerCounts.Select(p => $"T_{p} {parallel[p][^1].Seconds:0.000} s")) + ")");
        }

        var samples = new FactoredSamples([.. sequential.Select(r => r.Seconds)], [.. elision.Select(r => r.Seconds)],
            parallel.ToDictionary(kv => kv.Key, kv => (IReadOnlyList<ParallelRunSample>)kv.Value))
        {
            SequentialThrottling = Throttling(sequential),
            ElisionThrottling = Throttling(elision),
        };
        return FactoredAnalysis.Analyze(program.Name, samples);

        // Null when no run was measured (no cgroup here, or a source that does not read it), so files stay as before.
        static IReadOnlyList<ThrottlingSample?>? Throttling(List<(double Seconds, ThrottlingSample? Throttling)> runs) =>
            runs.Any(r => r.Throttling is not null) ? [.. runs.Select(r => r.Throttling)] : null;
    }
}
