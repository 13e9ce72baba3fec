using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Metrics.Throttling;
using DivCon.Skeletons;

namespace DivCon.Tests.Factored;

/// <summary>A program that does nothing but record what the pipeline asked of it; with an elision, a skeleton program.</summary>
internal class FakeFactoredProgram(string name) : IWorkloadProgram
{
    public List<string> Calls { get; } = [];

    public string Name => name;

    public static FakeFactoredProgram Create(string name, bool hasElision) => hasElision ? new FakeSkeletonProgram(name) : new FakeFactoredProgram(name);

    public void Initialize() => Calls.Add("prepare");

    public void RunSequential() => Calls.Add("sequential");

    public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        Calls.Add(this is ISkeletonProgram { Granularity: var g, ProblemSize: var size } && g == size ? "elision" : "parallel");
        return Task.CompletedTask;
    }

    public void Verify() => Calls.Add("verify");

    private sealed class FakeSkeletonProgram(string name) : FakeFactoredProgram(name), ISkeletonProgram
    {
        public int BranchingFactor => 2;

        public long ProblemSize => 1024;

        public long Granularity { get; set; } = 64;

        public PhaseProfiler? Profiler { get; set; }

        public void UseAutomaticGranularity(int cores, int musclesPerCore) => Granularity = 64;

        public void UseSequentialElision() => Granularity = ProblemSize;
    }
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

    public (double Seconds, ThrottlingSample? Throttling) MeasureSequential(IWorkloadProgram program, CancellationToken cancellationToken)
    {
        Calls.Add("ts");
        if (runPrograms)
        {
            program.RunSequential();
        }

        return (ts, null);
    }

    public ParallelRunSample MeasureParallel(IWorkloadProgram program, int workers, CancellationToken cancellationToken)
    {
        Calls.Add($"p{workers}");
        if (runPrograms)
        {
            program.RunAsync(TaskScheduler.Default, cancellationToken).Wait(TimeSpan.FromMinutes(1), cancellationToken);
        }

        int k = _runs.TryGetValue(workers, out int n) ? n : 0;
        _runs[workers] = k + 1;
        return new ParallelRunSample(t1 / workers + overhead * (workers - 1) + k * drift, idlePerExtraWorker * (workers - 1));
    }

    public (double Seconds, ThrottlingSample? Throttling) MeasureElision(ISkeletonProgram program, CancellationToken cancellationToken)
    {
        Calls.Add("te");
        if (runPrograms)
        {
            long granularity = program.Granularity;
            program.UseSequentialElision();
            program.RunAsync(TaskScheduler.Default, cancellationToken).Wait(TimeSpan.FromMinutes(1), cancellationToken);
            program.Granularity = granularity;
        }

        return (te, null);
    }
}
