using BenchmarkDotNet.Attributes;
using DivCon.Benchmarks.Scheduling;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// Overhead of a program's scheduler inside the MultiProgramScheduler (one program holding every worker) vs a
/// standalone <see cref="WorkStealingTaskScheduler"/> on the same processors, both pinned, spawn-tree ns per task
/// and their ratio in one run (target: at most 1.10).
/// </summary>
[MemoryDiagnoser]
public class MultiProgramOverheadBenchmarks
{
    private WorkStealingTaskScheduler? _standalone;
    private MultiProgramScheduler? _multi;
    private ProgramHandle? _program;

    /// <summary>Tree depth: 2^(Depth+1) - 1 tasks.</summary>
    [Params(18)]
    public int Depth { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        IReadOnlyList<int> processors = ThreadAffinity.GetProcessAffinity();
        _standalone = WorkStealingTaskScheduler.CreatePinned(processors, bestEffort: true);
        _multi = new MultiProgramScheduler(new MultiProgramSchedulerOptions { Processors = processors, BestEffortPinning = true });
        _program = _multi.AddProgram("benchmark");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _standalone?.Dispose();
        _multi?.Dispose();
    }

    [Benchmark(Baseline = true, Description = "Standalone WorkStealing")]
    public long Standalone() => SpawnTree.Run(_standalone!, Depth);

    [Benchmark(Description = "Program in MultiProgramScheduler")]
    public long InMultiProgram() => SpawnTree.Run(_program!.Scheduler, Depth);
}
