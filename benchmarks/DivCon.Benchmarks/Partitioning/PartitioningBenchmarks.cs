using BenchmarkDotNet.Attributes;
using DivCon.Partitioning;

namespace DivCon.Benchmarks.Partitioning;

/// <summary>
/// Decision time of each partitioning policy for 1024 cores and 256 programs (issue 5), as ratios to the
/// scalability policy measured in the same run. Scenarios: every program has enough tasks (task availability takes
/// its O(m) path) or half of them are short of tasks (the heap steps run); with or without a previous placement to
/// move as little as possible from.
/// Quick run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*PartitioningBenchmarks*' --job Short --inProcess</c>
/// (or <c>--job Dry</c> for a smoke run).
/// </summary>
[MemoryDiagnoser]
public class PartitioningBenchmarks
{
    private readonly ScalabilityPolicy _scalability = new();
    private readonly TaskAvailabilityPolicy _taskAvailability = new();
    private readonly HillClimbingPolicy _hillClimbing = new();
    private readonly IdleLendingPolicy _idleLending = new();
    private PartitioningInput _input = null!;
    private double[] _scalabilities = null!;
    private int[] _tasks = null!;
    private int[] _serving = null!;

    /// <summary>Cores to divide.</summary>
    [Params(1024)]
    public int Cores { get; set; }

    /// <summary>Programs sharing them.</summary>
    [Params(256)]
    public int Programs { get; set; }

    /// <summary>Whether half of the programs have fewer available tasks than their base allocation.</summary>
    [Params(false, true)]
    public bool ShortOfTasks { get; set; }

    /// <summary>Whether a previous placement (of different counts) is given, so placement keeps what it can.</summary>
    [Params(false, true)]
    public bool WithPrevious { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(1024);
        var programs = new ProgramLoad[Programs];
        for (int i = 0; i < Programs; i++)
        {
            double s = 1 + (rng.NextDouble() * 30);
            var points = new List<(int, double)>();
            for (int c = 1; c <= Cores; c *= 2)
            {
                // Non-monotone: Amdahl-like growth with a random dip, so hill climbing has moves to make.
                points.Add((c, Math.Max(0.5, (c / (1 + (c * 0.01 * rng.NextDouble()))) * (0.7 + (0.3 * rng.NextDouble())))));
            }

            int tasks = ShortOfTasks && i % 2 == 0 ? rng.Next(0, 3) : 10_000;
            programs[i] = new ProgramLoad(i, s, tasks, new ScalabilityTable(points));
        }

        _input = new PartitioningInput(Cores, programs);
        if (WithPrevious)
        {
            // The previous decision: equal shares, so the new one moves a realistic number of workers.
            var counts = Enumerable.Range(0, Programs).Select(i => (Cores / Programs) + (i < Cores % Programs ? 1 : 0)).ToArray();
            Allocation previous = Placement.Place(_input, counts);
            _input = _input with { Previous = previous, PreviousProgramIds = programs.Select(p => p.ProgramId).ToArray() };
        }

        _scalabilities = programs.Select(p => p.Scalability).ToArray();
        _tasks = programs.Select(p => p.AvailableTasks).ToArray();
        _serving = Enumerable.Range(0, Programs).Select(i => rng.Next(0, 8)).ToArray();
    }

    /// <summary>The baseline: static shares plus placement.</summary>
    [Benchmark(Baseline = true)]
    public Allocation Scalability() => _scalability.Decide(_input);

    /// <summary>Figure 5.20's repartitioning plus placement.</summary>
    [Benchmark]
    public Allocation TaskAvailability() => _taskAvailability.Decide(_input);

    /// <summary>Repartitioning counts only (the heap), without placement.</summary>
    [Benchmark]
    public IReadOnlyList<int> TaskAvailabilityCountsOnly() => TaskAvailabilityPolicy.Compute(Cores, _scalabilities, _tasks).Final;

    /// <summary>SBMP-style hill climbing over the tables plus placement.</summary>
    [Benchmark]
    public Allocation HillClimbing() => _hillClimbing.Decide(_input);

    /// <summary>Idle lending's tick decision (task availability) plus placement.</summary>
    [Benchmark]
    public Allocation IdleLendingTick() => _idleLending.Decide(_input);

    /// <summary>One idle-lending choice, as a worker would make it between tasks.</summary>
    [Benchmark]
    public int IdleLendingChooseBorrower() => IdleLending.ChooseBorrower(_scalabilities, _serving, _tasks, 0);
}
