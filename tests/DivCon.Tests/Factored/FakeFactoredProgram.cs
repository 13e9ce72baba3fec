using DivCon.Harness.Factored;

namespace DivCon.Tests.Factored;

/// <summary>A program that does nothing but record what the pipeline asked of it.</summary>
internal sealed class FakeFactoredProgram(string name, bool hasElision) : IFactoredProgram
{
    public List<string> Calls { get; } = [];

    public string Name => name;

    public bool HasElision => hasElision;

    public void Prepare() => Calls.Add("prepare");

    public void RunSequential() => Calls.Add("sequential");

    public Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        Calls.Add("parallel");
        return Task.CompletedTask;
    }

    public Task RunElisionAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        Calls.Add("elision");
        return Task.CompletedTask;
    }

    public void Verify() => Calls.Add("verify");
}

/// <summary>
/// Scripted times: T_s = <c>ts</c>, T_elision = <c>te</c>, and at P workers run k (0-based) takes
/// T_1 / P + <c>overhead</c>·(P − 1) + k·<c>drift</c> with idle <c>idlePerExtraWorker</c>·(P − 1). With
/// <c>runPrograms</c> it also runs the program (on the default scheduler) so that its results can be verified; the
/// times it returns are still the scripted ones.
/// </summary>
internal sealed class ScriptedMeasurementSource(double ts, double te, double t1, double overhead, double idlePerExtraWorker, double drift = 0, bool runPrograms = false)
    : IFactoredMeasurementSource
{
    private readonly Dictionary<int, int> _runs = [];

    public List<string> Calls { get; } = [];

    public double MeasureSequential(IFactoredProgram program, CancellationToken cancellationToken)
    {
        Calls.Add("ts");
        if (runPrograms)
        {
            program.RunSequential();
        }

        return ts;
    }

    public ParallelRunSample MeasureParallel(IFactoredProgram program, int workers, CancellationToken cancellationToken)
    {
        Calls.Add($"p{workers}");
        if (runPrograms)
        {
            program.RunParallelAsync(TaskScheduler.Default, cancellationToken).Wait(TimeSpan.FromMinutes(1), cancellationToken);
        }

        int k = _runs.TryGetValue(workers, out int n) ? n : 0;
        _runs[workers] = k + 1;
        return new ParallelRunSample(t1 / workers + overhead * (workers - 1) + k * drift, idlePerExtraWorker * (workers - 1));
    }

    public double MeasureElision(IFactoredProgram program, CancellationToken cancellationToken)
    {
        Calls.Add("te");
        if (runPrograms)
        {
            program.RunElisionAsync(TaskScheduler.Default, cancellationToken).Wait(TimeSpan.FromMinutes(1), cancellationToken);
        }

        return te;
    }
}
