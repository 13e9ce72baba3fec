using BenchmarkDotNet.Attributes;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// Self-requeuing work items, the shape of the .NET thread pool's own throughput benchmark: several chains run at
/// once; each item queues the next item of its chain until the chain has run its share. Reported per operation of
/// <see cref="ItemsPerOperation"/> items (divide for items per second) and as a ratio to Default.
/// </summary>
[MemoryDiagnoser]
public class SelfRequeueBenchmarks
{
    public const int ItemsPerOperation = 100_000;

    private static readonly Action<object?> s_step = Step;
    private WorkStealingTaskScheduler? _workStealing;

    /// <summary>Chains running at once.</summary>
    [Params(2, 16)]
    public int Chains { get; set; }

    [GlobalSetup]
    public void Setup() => _workStealing = SchedulerKind.CreateWorkStealing();

    [GlobalCleanup]
    public void Cleanup() => _workStealing?.Dispose();

    [Benchmark(Baseline = true, Description = "Default", OperationsPerInvoke = ItemsPerOperation)]
    public int Default() => Run(TaskScheduler.Default);

    [Benchmark(Description = "WorkStealing(2)", OperationsPerInvoke = ItemsPerOperation)]
    public int WorkStealing() => Run(_workStealing!);

    private int Run(TaskScheduler scheduler)
    {
        var done = new TaskCompletionSource<int>();
        var run = new RunState(Chains, done);
        for (int c = 0; c < Chains; c++)
        {
            var chain = new Chain(run, scheduler, ItemsPerOperation / Chains);
            Task.Factory.StartNew(s_step, chain, CancellationToken.None, TaskCreationOptions.None, scheduler);
        }

        return done.Task.GetAwaiter().GetResult();
    }

    private static void Step(object? state)
    {
        var chain = (Chain)state!;
        if (--chain.Remaining > 0)
        {
            Task.Factory.StartNew(s_step, chain, CancellationToken.None, TaskCreationOptions.None, chain.Scheduler);
            return;
        }

        if (Interlocked.Decrement(ref chain.Run.ChainsLeft) == 0)
        {
            chain.Run.Done.SetResult(chain.Run.Chains);
        }
    }

    private sealed class RunState(int chains, TaskCompletionSource<int> done)
    {
        public readonly int Chains = chains;
        public readonly TaskCompletionSource<int> Done = done;
        public int ChainsLeft = chains;
    }

    private sealed class Chain(RunState run, TaskScheduler scheduler, int items)
    {
        public readonly RunState Run = run;
        public readonly TaskScheduler Scheduler = scheduler;
        public int Remaining = items; // touched by one item at a time: the chain's items run one after another
    }
}
