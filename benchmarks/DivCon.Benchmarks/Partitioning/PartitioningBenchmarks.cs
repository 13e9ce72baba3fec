using BenchmarkDotNet.Attributes;
using DivCon.Partitioning;

namespace DivCon.Benchmarks.Partitioning;

/// <summary>
/// Decision time of every registered policy for 1024 cores and 256 programs (issue 18: at most 100 µs each): the whole
/// decision as the MultiProgramScheduler and the simulator take it, <see cref="Repartitioner.Decide"/> (input checks,
/// the policy's shares and postconditions, rotation, placement), as ratios to the scalability policy measured in the
/// same run; and one idle worker's borrower choice by each lending rule. Scenarios: every program has enough tasks
/// (task availability takes its O(m) path) or half of them are short of tasks (the heap steps run); with or without an
/// allocation in force to move as little as possible from.
/// Quick run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*PartitioningBenchmarks*' --job Short --inProcess</c>
/// (or <c>--job Dry</c> for a smoke run).
/// </summary>
[MemoryDiagnoser]
public class PartitioningBenchmarks
{
    private readonly IPartitioningPolicy _scalability = new ScalabilityPolicy();
    private readonly IPartitioningPolicy _taskAvailability = new TaskAvailabilityPolicy();
    private readonly IPartitioningPolicy _hillClimbing = new HillClimbingPolicy();
    private readonly IPartitioningPolicy _equalShares = new EqualSharesPolicy();
    private readonly IPartitioningPolicy _idleLending = new IdleLendingPolicy();
    private readonly IPartitioningPolicy _workConserving = new WorkConservingPolicy();
    private Repartitioner _repartitioner = null!;
    private ProgramLoad[] _programs = null!;
    private Allocation? _inForce;
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

    /// <summary>Whether an allocation is in force (of different counts), so placement keeps what it can.</summary>
    [Params(false, true)]
    public bool WithPrevious { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(1024);
        _programs = new ProgramLoad[Programs];
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
            _programs[i] = new ProgramLoad(i, s, tasks, new ScalabilityTable(points));
        }

        _repartitioner = new Repartitioner(Cores);
        if (WithPrevious)
        {
            // The previous decision: equal shares, so the new one moves a realistic number of workers.
            _inForce = _repartitioner.Decide(_equalShares, _programs, null).Allocation;
        }

        _tasks = _programs.Select(p => p.AvailableTasks).ToArray();
        _serving = Enumerable.Range(0, Programs).Select(i => rng.Next(0, 8)).ToArray();
    }

    /// <summary>The baseline: static shares, placed.</summary>
    [Benchmark(Baseline = true)]
    public Allocation Scalability() => _repartitioner.Decide(_scalability, _programs, _inForce).Allocation;

    /// <summary>Figure 5.20's repartitioning, placed.</summary>
    [Benchmark]
    public Allocation TaskAvailability() => _repartitioner.Decide(_taskAvailability, _programs, _inForce).Allocation;

    /// <summary>SBMP-style hill climbing over the tables, placed.</summary>
    [Benchmark]
    public Allocation HillClimbing() => _repartitioner.Decide(_hillClimbing, _programs, _inForce).Allocation;

    /// <summary>Equal shares, placed.</summary>
    [Benchmark]
    public Allocation EqualShares() => _repartitioner.Decide(_equalShares, _programs, _inForce).Allocation;

    /// <summary>Idle lending's decision (task availability), placed.</summary>
    [Benchmark]
    public Allocation IdleLendingDecision() => _repartitioner.Decide(_idleLending, _programs, _inForce).Allocation;

    /// <summary>The default policy's decision (equal shares), placed.</summary>
    [Benchmark]
    public Allocation WorkConservingDecision() => _repartitioner.Decide(_workConserving, _programs, _inForce).Allocation;

    /// <summary>Repartitioning counts only (the heap), without the repartitioner.</summary>
    [Benchmark]
    public IReadOnlyList<int> TaskAvailabilityCountsOnly() => TaskAvailabilityPolicy.Compute(Cores, _programs.Select(p => p.Scalability).ToArray(), _tasks).Final;

    /// <summary>One idle worker's choice by serving workers per unit of scalability (idle-lending).</summary>
    [Benchmark]
    public int ChooseBorrower() => IdleLending.ChooseBorrower(new LendingInput(Cores, _programs, _serving, _tasks, 0));

    /// <summary>One idle worker's choice by predicted throughput (work-conserving, the default).</summary>
    [Benchmark]
    public int ChooseByThroughput() => IdleLending.ChooseByThroughput(new LendingInput(Cores, _programs, _serving, _tasks, 0));
}
