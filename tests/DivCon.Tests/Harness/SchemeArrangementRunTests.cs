using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Samples;

namespace DivCon.Tests.Harness;

/// <summary>
/// Issue 6 must-show 3, for every scheme the CLI can run: a short real multiprogram phase, then the schedulers' own
/// statistics must show the scheme's arrangement (shared vs separate schedulers, worker counts, pinning, one pool
/// whose allocations add up to its workers). Schemes wired later are covered by the same test; a partitioned scheme
/// must also say whether it repartitions periodically (<see cref="DynamicSchemes"/>) or not.
/// </summary>
public sealed class SchemeArrangementRunTests
{
    /// <summary>The partitioned schemes that repartition every interval; the others decide on arrival and exit only.</summary>
    private static readonly string[] DynamicSchemes =
        [BuiltInSchemes.DynamicPartitionedName, BuiltInSchemes.EqualSharesName, BuiltInSchemes.IdleLendingName];

    private static readonly string[] StaticSchemes = [BuiltInSchemes.StaticPartitionedName, BuiltInSchemes.HillClimbingName];

    public static TheoryData<string> AvailableSchemes()
    {
        var data = new TheoryData<string>();
        foreach (SchemeDescriptor s in HarnessWiring.Schemes().Available)
        {
            data.Add(s.Name);
        }

        return data;
    }

    [Fact]
    public void EveryPartitionedScheme_IsKnownAsStaticOrDynamic()
    {
        string[] partitioned = HarnessWiring.Schemes().Available.Where(s => s.RequiresScalability).Select(s => s.Name).ToArray();

        Assert.Equal(partitioned.Order(), DynamicSchemes.Concat(StaticSchemes).Order());
    }

    [Theory]
    [MemberData(nameof(AvailableSchemes))]
    public async Task ShortRun_SchedulerStatisticsShowTheArrangement(string name)
    {
        SchemeDescriptor scheme = HarnessWiring.Schemes().Find(name)!;
        IReadOnlyList<int> processors = MachineInfo.AffinityMask();
        int cores = processors.Count;
        if (scheme.RequiresScalability && cores < 2)
        {
            return; // a partitioned pool of one core serves one of the two programs only (see the static-scheme test below)
        }

        IWorkloadProgram[] programs =
        [
            new SampleProgramAdapter(new SyntheticSpinProgram("p0", ProblemSize.Small, 200_000, 8, 0, 1)),
            new SampleProgramAdapter(new SyntheticSpinProgram("p1", ProblemSize.Small, 200_000, 8, 0.5, 2)),
        ];
        var context = new SchemeContext(programs.Select(p => new SchemeProgramInfo(p.Name, 1.5)).ToArray(), processors);

        (IReadOnlyList<SchedulerStats> stats, PhaseResult phase) = await RunPhase(scheme, context, programs, TimeSpan.FromSeconds(1.5));

        Assert.Equal(2, stats.Count);
        Assert.All(Enumerable.Range(0, 2), i => Assert.NotEmpty(phase.RecordedDurations(i)));
        bool shared = name is BuiltInSchemes.TplDefaultName or BuiltInSchemes.SharedName;
        Assert.Equal(shared ? 1 : 2, stats.Select(s => s.SchedulerId).Distinct().Count());
        switch (name)
        {
            case BuiltInSchemes.TplDefaultName:
                Assert.All(stats, s => Assert.Equal(TaskScheduler.Default.Id, s.SchedulerId));
                Assert.All(stats, s => Assert.False(s.Pinned));
                break;
            case BuiltInSchemes.OversubscribedFreeName:
                // One free scheduler per program, each with a worker per core.
                AssertWorkStealing(stats, cores);
                Assert.All(stats, s => Assert.False(s.Pinned));
                Assert.All(stats, s => Assert.Null(s.Processors));
                break;
            case BuiltInSchemes.OversubscribedPinnedName:
                // One scheduler per program, each with a worker pinned to every core.
                AssertWorkStealing(stats, cores);
                Assert.All(stats, s => Assert.True(s.Pinned));
                Assert.All(stats, s => Assert.Equal(processors, s.Processors!));
                break;
            case BuiltInSchemes.SharedName:
                // One scheduler, a worker pinned to every core, serving both programs.
                AssertWorkStealing(stats, cores);
                Assert.All(stats, s => Assert.True(s.Pinned));
                Assert.All(stats, s => Assert.Equal(processors, s.Processors!));
                Assert.Same(stats[0], stats[1]);
                break;
            default:
                AssertPartitioned(name, stats, processors);
                break;
        }
    }

    [Theory]
    [InlineData(BuiltInSchemes.DynamicPartitionedName)]
    [InlineData(BuiltInSchemes.IdleLendingName)]
    public async Task DynamicSchemes_MoveWorkersWhenAProgramRunsOutOfTasks(string name)
    {
        // p0 spends most of each run in one serial task (no task available: its second worker should go to p1);
        // p1 always has many tasks. Arrival alone makes 3 moves on 2+ cores (all workers to p0, then p1's share).
        SchemeDescriptor scheme = HarnessWiring.Schemes().Find(name)!;
        IReadOnlyList<int> processors = MachineInfo.AffinityMask();
        if (processors.Count < 2)
        {
            return; // one core cannot be divided: nothing can move
        }

        IWorkloadProgram[] programs =
        [
            new SampleProgramAdapter(new SyntheticSpinProgram("serial", ProblemSize.Small, 60_000_000, 4, 0.9, 1)),
            new SampleProgramAdapter(new SyntheticSpinProgram("parallel", ProblemSize.Small, 4_000_000, 64, 0, 2)),
        ];
        var context = new SchemeContext(programs.Select(p => new SchemeProgramInfo(p.Name, 1.5)).ToArray(), processors);
        long moves = 0;
        for (int attempt = 0; attempt < 5 && moves <= processors.Count + 1; attempt++)
        {
            (IReadOnlyList<SchedulerStats> stats, _) = await RunPhase(scheme, context, programs, TimeSpan.FromSeconds(1.5));
            moves = stats.Sum(s => s.MovesIn ?? 0);
        }

        Assert.True(moves > processors.Count + 1, $"{name}: only {moves} moves in, no more than the programs' arrival needs.");
    }

    [Theory]
    [InlineData(BuiltInSchemes.StaticPartitionedName)]
    [InlineData(BuiltInSchemes.HillClimbingName)]
    public async Task StaticScheme_FewerCoresThanPrograms_StarvedProgramIsReported_AndThePhaseStillEnds(string name)
    {
        // A static partition of 2 cores among 3 programs gives one of them no core for the whole phase: its first run
        // can neither finish nor, once canceled at the limit, end until a worker picks its queued task up.
        int[] processors = MachineInfo.AffinityMask().Take(2).ToArray();
        IWorkloadProgram[] programs = Enumerable.Range(0, 3)
            .Select(i => (IWorkloadProgram)new SampleProgramAdapter(new SyntheticSpinProgram($"p{i}", ProblemSize.Small, 2_000_000, 8, 0.1 * i, i + 1)))
            .ToArray();
        SchemeRegistry registry = HarnessWiring.Schemes();
        var settings = new CyclicSettings(TimeSpan.FromSeconds(2), SpRuns: 2, WarmupRuns: 0, Repeat: 1, processors, Seed: 1,
            StopGrace: TimeSpan.FromSeconds(20), RunTimeout: TimeSpan.FromSeconds(30));
        var plan = new CyclicPlan("cyclic", programs, [registry.Find(name)!], registry.Find(BuiltInSchemes.OversubscribedFreeName)!, "small", settings);

        CyclicResult result = await HarnessThread.RunAsync(() => new CyclicExperiment(TimeProvider.System).RunAsync(plan)).WaitAsync(TimeSpan.FromSeconds(90));

        SchemeResult scheme = Assert.Single(result.Schemes);
        int starved = programs.Length - processors.Length;
        Assert.Equal(starved, scheme.Programs.Count(p => p.Runs == 0));
        Assert.Equal(starved, scheme.Schedulers.Count(s => s.Workers == 0));
        Assert.Equal(processors.Length, scheme.Schedulers.Sum(s => s.Workers));
        Assert.True(starved == scheme.Warnings.Count(w => w.Contains("gave it almost no core", StringComparison.Ordinal)),
            string.Join("; ", scheme.Warnings) + " | " + string.Join("; ", scheme.Schedulers.Select(s => $"{s.Workers} {s.CoreSeconds} {s.IdleSeconds} {s.MovesIn}/{s.MovesOut}")));
        Assert.Null(scheme.Antt); // no system metric without every program's runs
    }

    private static async Task<(IReadOnlyList<SchedulerStats> Stats, PhaseResult Phase)> RunPhase(
        SchemeDescriptor scheme, SchemeContext context, IWorkloadProgram[] programs, TimeSpan duration)
    {
        using ISchedulerArrangement arrangement = scheme.Create(context);
        var phasePrograms = programs.Select((p, i) => new PhaseProgram(p.Name, ct =>
        {
            // As CyclicExperiment does: a stopped run lets a partitioned pool drain it.
            ct.Register(() => arrangement.OnRunStopping(i));
            return p.RunAsync(arrangement.SchedulerFor(i), ct);
        })).ToArray();
        PhaseResult phase = await HarnessThread.RunAsync(() => CyclicProtocol.RunMultiprogramAsync(
            phasePrograms, duration, TimeProvider.System, TimeSpan.FromSeconds(30))).WaitAsync(TimeSpan.FromSeconds(60));
        return (arrangement.Snapshot(), phase);
    }

    private static void AssertWorkStealing(IReadOnlyList<SchedulerStats> stats, int cores)
    {
        Assert.All(stats, s => Assert.Equal("WorkStealingTaskScheduler", s.Kind));
        Assert.All(stats, s => Assert.Equal(cores, s.Workers));
        Assert.All(stats, s => Assert.True(s.TasksExecuted > 0));
        Assert.All(stats, s => Assert.True(s.IdleSeconds >= 0 && s.BusySeconds > 0));
        Assert.All(stats, s => Assert.True(s.Steals >= 0));
        Assert.All(stats, s => Assert.Null(s.PoolId));
    }

    private static void AssertPartitioned(string name, IReadOnlyList<SchedulerStats> stats, IReadOnlyList<int> processors)
    {
        int cores = processors.Count;

        // One MultiProgramScheduler: one pool of pinned workers, one per core, divided among the programs.
        Assert.Single(stats.Select(s => s.PoolId).Distinct());
        Assert.NotNull(stats[0].PoolId);
        Assert.All(stats, s => Assert.Equal(cores, s.PoolWorkers));
        Assert.All(stats, s => Assert.StartsWith("MultiProgramScheduler", s.Kind, StringComparison.Ordinal));
        Assert.Equal(cores, stats.Sum(s => s.Workers));
        Assert.All(stats, s => Assert.True(s.Pinned));
        int[] held = stats.SelectMany(s => s.Processors!).ToArray();
        Assert.Equal(processors.Order(), held.Order()); // every processor held by exactly one program
        Assert.All(stats, s => Assert.True(s.TasksExecuted > 0 && s.CoreSeconds > 0));
        Assert.All(stats, s => Assert.True(s.IdleSeconds >= 0 && s.BusySeconds > 0 && s.CoreSeconds >= s.BusySeconds));
        Assert.True(stats.Sum(s => s.MovesIn) >= cores, "every worker moved to a program at least once");

        // Two programs arrived: two repartitionings. A static scheme makes no other; a dynamic one ticks every 100 ms.
        long repartitions = stats.Max(s => s.Repartitions!.Value);
        if (StaticSchemes.Contains(name))
        {
            Assert.Equal(2, repartitions);
        }
        else
        {
            Assert.Contains(name, DynamicSchemes);
            Assert.True(repartitions > 2, $"{name}: {repartitions} repartitionings in 1.5 s");
        }
    }
}
