using DivCon.Harness.Throttling;
using DivCon.Metrics.Throttling;
using DivCon.Scheduling;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Collects a cyclic test's throttling samples (<see cref="CyclicThrottling"/>): opens a <see cref="ThrottlingWindow"/>
/// around each timed run alone and each phase, and keeps the samples by program, measure and repetition. Used on the
/// harness thread only; a wrapped run's sample is added when its task completes, before the protocol sees it complete.
/// </summary>
internal sealed class ThrottlingRecorder(Func<CpuThrottling?> read)
{
    private readonly List<AloneThrottling> _alone = [];
    private readonly List<PhaseThrottling> _phases = [];

    /// <summary>Opens a window now; the function it returns closes it.</summary>
    public Func<ThrottlingSample?> Open() => ThrottlingWindow.Open(read);

    /// <summary>
    /// <paramref name="program"/> with a window around each run: opened when the run starts, closed when its task
    /// completes, and the sample added to <paramref name="samples"/> before the returned task completes (the returned
    /// task is the run's own, unwrapped: same result, exceptions and cancellation).
    /// </summary>
    public PhaseProgram Wrap(PhaseProgram program, List<ThrottlingSample?> samples) => program with
    {
        StartRun = ct =>
        {
            Func<ThrottlingSample?> closeWindow = Open();
            Task run = program.StartRun(ct);
            // Synchronously on the thread that completes the run: the protocol's end-time continuation is on the task
            // returned here, so it runs after the sample is taken (one small file read later than without it).
            return run.ContinueWith(
                done =>
                {
                    lock (samples)
                    {
                        samples.Add(closeWindow());
                    }

                    return done;
                },
                CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default).Unwrap();
        },
    };

    /// <summary>Records the samples of a program's timed runs alone.</summary>
    public void Alone(string program, string measure, int repetition, IReadOnlyList<ThrottlingSample?> runs) =>
        _alone.Add(new AloneThrottling(program, measure, repetition, runs.ToArray()));

    /// <summary>Records a phase's sample.</summary>
    public void Phase(string scheme, int repetition, ThrottlingSample? phase) => _phases.Add(new PhaseThrottling(scheme, repetition, phase));

    /// <summary>Everything recorded; null when no reading succeeded (no cgroup here), so that a file says "not measured".</summary>
    public CyclicThrottling? Result() =>
        _alone.Any(a => a.Runs.Any(r => r is not null)) || _phases.Any(p => p.Phase is not null)
            ? new CyclicThrottling(_alone.ToArray(), _phases.ToArray())
            : null;
}
