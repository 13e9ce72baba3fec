using BenchmarkDotNet.Attributes;
using DivCon.Multiprogramming;
using DivCon.Partitioning;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// Cost of one repartitioning tick when nothing changes: read every program's load (O(programs x workers) counter
/// reads), call the policy, validate, compare with the allocation in force (no move). With 64 programs and, for
/// reference, 4 and 16.
/// </summary>
[MemoryDiagnoser]
public class RepartitionTickBenchmarks
{
    private MultiProgramScheduler? _multi;

    /// <summary>Registered programs.</summary>
    [Params(4, 16, 64)]
    public int Programs { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _multi = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionInterval = Timeout.InfiniteTimeSpan,
            Policy = new EqualSharesPolicy(),
        });
        for (int i = 0; i < Programs; i++)
        {
            _multi.AddProgram($"p{i}");
        }
    }

    [GlobalCleanup]
    public void Cleanup() => _multi?.Dispose();

    [Benchmark(Description = "tick, nothing changes")]
    public long Tick()
    {
        _multi!.Repartition();
        return _multi.Repartitions;
    }
}
