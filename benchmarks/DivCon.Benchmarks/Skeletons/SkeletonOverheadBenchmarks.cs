using BenchmarkDotNet.Attributes;
using DivCon.Skeletons;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The skeleton's own cost per task: a recursion of tiny muscles (sum of an index range, grain 16, 4096 muscles),
/// asynchronous (baseline) vs fork-join, with the phase profiler off vs on. The Allocated column shows the
/// allocation per run (frames, tasks, result arrays, the subproblem arrays of Split), the same with the profiler off
/// and on: recording allocates nothing once the profiler has seen the recursion's depth.
/// </summary>
[MemoryDiagnoser]
public class SkeletonOverheadBenchmarks : SchedulerBenchmark
{
    private const int Size = 1 << 16;
    private DivConBase<ElementRange, long> _program = null!;
    private PhaseProfiler _profiler = null!;

    /// <inheritdoc/>
    protected override void SetUpPrograms()
    {
        _profiler = new PhaseProfiler();
        _program = DivConFactory.Create<ElementRange, long>(
            TaskScheduler,
            shouldSplit: static (range, level) => range.Length > 16,
            split: static (range, level) => range.Split(2),
            executeMuscle: static (range, level) =>
            {
                long sum = 0;
                for (int i = range.Min; i < range.Max; i++)
                {
                    sum += i;
                }

                return sum;
            },
            merge: static (results, level) => results[0] + results[1]);
    }

    [Benchmark(Baseline = true)]
    public long Asynchronous() => Run(DivConExecution.Asynchronous, null);

    [Benchmark]
    public long AsynchronousProfiled() => Run(DivConExecution.Asynchronous, _profiler);

    [Benchmark]
    public long ForkJoin() => Run(DivConExecution.ForkJoin, null);

    private long Run(DivConExecution execution, PhaseProfiler? profiler)
    {
        _program.Execution = execution;
        _program.Profiler = profiler;
        long result = _program.RunAsync(new ElementRange(0, Size)).GetAwaiter().GetResult();
        if (result != (long)Size * (Size - 1) / 2)
        {
            throw new InvalidOperationException($"Wrong sum {result}.");
        }

        return result;
    }
}
