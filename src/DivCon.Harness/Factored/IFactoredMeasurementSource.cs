using DivCon.Harness.Programs;
using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Factored;

/// <summary>
/// Times single runs for <see cref="FactoredMeasurement"/>. The real source (<see cref="SchedulerMeasurementSource"/>)
/// uses a stopwatch and the work-stealing scheduler's idle counters; tests pass a fake that returns scripted numbers,
/// so the pipeline is tested without real timing.
/// </summary>
public interface IFactoredMeasurementSource
{
    /// <summary>Times one run of the sequential baseline: seconds, and the cgroup throttling during it (null when not measured).</summary>
    (double Seconds, ThrottlingSample? Throttling) MeasureSequential(IWorkloadProgram program, CancellationToken cancellationToken);

    /// <summary>Times one parallel run on <paramref name="workers"/> workers and the workers' total idle time during it.</summary>
    ParallelRunSample MeasureParallel(IWorkloadProgram program, int workers, CancellationToken cancellationToken);

    /// <summary>
    /// Times one run of the sequential elision: the parallel code with granularity = problem size (T_elision), on one
    /// worker; the program's granularity is restored afterwards. Seconds, and the throttling as <see cref="MeasureSequential"/>.
    /// </summary>
    (double Seconds, ThrottlingSample? Throttling) MeasureElision(ISkeletonProgram program, CancellationToken cancellationToken);
}
