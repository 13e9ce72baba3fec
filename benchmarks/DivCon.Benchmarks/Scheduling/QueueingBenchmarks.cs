using BenchmarkDotNet.Attributes;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// External enqueue throughput: one outside thread queues many empty tasks, then waits until all have run
/// (per-task time; ratio to Default).
/// </summary>
[MemoryDiagnoser]
public class ExternalEnqueueBenchmarks
{
    public const int TasksPerOperation = 50_000;

    private static readonly Action<object?> s_count = state =>
    {
        var run = (Countdown)state!;
        if (Interlocked.Decrement(ref run.Left) == 0)
        {
            run.Done.SetResult();
        }
    };

    private WorkStealingTaskScheduler? _workStealing;

    [GlobalSetup]
    public void Setup() => _workStealing = SchedulerKind.CreateWorkStealing();

    [GlobalCleanup]
    public void Cleanup() => _workStealing?.Dispose();

    [Benchmark(Baseline = true, Description = "Default", OperationsPerInvoke = TasksPerOperation)]
    public int Default() => Run(TaskScheduler.Default);

    [Benchmark(Description = "WorkStealing(2)", OperationsPerInvoke = TasksPerOperation)]
    public int WorkStealing() => Run(_workStealing!);

    private static int Run(TaskScheduler scheduler)
    {
        var run = new Countdown { Left = TasksPerOperation };
        for (int i = 0; i < TasksPerOperation; i++)
        {
            Task.Factory.StartNew(s_count, run, CancellationToken.None, TaskCreationOptions.None, scheduler);
        }

        run.Done.Task.GetAwaiter().GetResult();
        return TasksPerOperation;
    }

    private sealed class Countdown
    {
        public readonly TaskCompletionSource Done = new();
        public int Left;
    }
}

/// <summary>
/// Wake-up latency of an idle worker: before each measurement the workers are left alone long enough to park; the
/// measured operation queues one task from an outside thread and waits until it has run. Cold start by nature:
/// one invocation per iteration, many iterations. Job mutators rather than a job of its own, so that the command
/// line's job and toolchain (<c>--job dry --inProcess</c>) still apply.
/// </summary>
[InvocationCount(1)]
[IterationCount(30)]
[WarmupCount(3)]
public class WakeUpLatencyBenchmarks
{
    private WorkStealingTaskScheduler? _workStealing;
    private readonly ManualResetEventSlim _ran = new(false);

    [GlobalSetup]
    public void Setup() => _workStealing = SchedulerKind.CreateWorkStealing();

    [GlobalCleanup]
    public void Cleanup() => _workStealing?.Dispose();

    /// <summary>Lets every worker finish spinning and park (both schedulers spin well under 10 ms).</summary>
    [IterationSetup]
    public void LetWorkersPark()
    {
        _ran.Reset();
        Thread.Sleep(20);
    }

    [Benchmark(Baseline = true, Description = "Default")]
    public bool Default() => WakeOne(TaskScheduler.Default);

    [Benchmark(Description = "WorkStealing(2)")]
    public bool WorkStealing() => WakeOne(_workStealing!);

    private bool WakeOne(TaskScheduler scheduler)
    {
        Task.Factory.StartNew(static s => ((ManualResetEventSlim)s!).Set(), _ran, CancellationToken.None, TaskCreationOptions.None, scheduler);
        return _ran.Wait(TimeSpan.FromSeconds(10));
    }
}
