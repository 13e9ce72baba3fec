using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Scheduling;
using DivCon.Samples;

namespace DivCon.Tests.Harness;

/// <summary>
/// Issue 6 must-show 3, for every scheme the CLI can run: a short real multiprogram phase, then the schedulers' own
/// statistics must show the scheme's arrangement (shared vs separate schedulers, worker counts, pinning, one pool
/// whose allocations add up to its workers). Schemes wired later are covered by the same test; a partitioned scheme
/// must also say whether its decision follows the programs' load (<see cref="DynamicSchemes"/>) or is static.
/// </summary>
public sealed class SchemeArrangementRunTests
{
    /// <summary>The partitioned schemes whose decision follows the load; the static ones re-decide every interval only to rotate cores.</summary>
    private static readonly string[] DynamicSchemes =
        [SchemeCatalog.DynamicPartitioned, SchemeCatalog.EqualShares, SchemeCatalog.IdleLending, SchemeCatalog.DemandPartitioned, SchemeCatalog.WorkConserving];

    private static readonly string[] StaticSchemes = [SchemeCatalog.StaticPartitioned, SchemeCatalog.HillClimbing];

    public static TheoryData<string> AvailableSchemes()
    {
        var data = new TheoryData<string>();
        foreach (SchemeDescriptor s in BuiltInSchemes.CreateRegistry().All)
        {
            data.Add(s.Name);
        }

        return data;
    }

    [Fact]
    public void EveryPartitionedScheme_IsKnownAsStaticOrDynamic()
    {
        string[] partitioned = BuiltInSchemes.CreateRegistry().All.Where(s => s.RequiresScalability).Select(s => s.Name).ToArray();

        Assert.Equal(partitioned.Order(), DynamicSchemes.Concat(StaticSchemes).Order());
    }

    [Theory]
    [MemberData(nameof(AvailableSchemes))]
    public async Task ShortRun_SchedulerStatisticsShowTheArrangement(string name)
    {
        SchemeDescriptor scheme = BuiltInSchemes.CreateRegistry().Find(name)!;
        IReadOnlyList<int> processors = ThreadAffinity.GetProcessAffinity();
        int cores = processors.Count;
        if (scheme.RequiresScalability && cores < 2)
        {
            return; // a partitioned pool of one core serves one of the two programs only (see the static-scheme test below)
        }

        IWorkloadProgram[] programs =
        [
            new SyntheticSpinProgram("p0", 200_000, 8, 0, 1),
            new SyntheticSpinProgram("p1", 200_000, 8, 0.5, 2),
        ];
        var context = new SchemeContext(programs.Select(p => (p.Name, (double?)1.5)).ToArray(), processors);

        (IReadOnlyList<SchedulerStats> stats, PhaseResult phase) = await RunPhase(scheme, context, programs, TimeSpan.FromSeconds(1.5));

        Assert.Equal(2, stats.Count);
        Assert.All(Enumerable.Range(0, 2), i => Assert.NotEmpty(phase.ProgramRuns()[i].Seconds));
        bool shared = name is SchemeCatalog.TplDefault or SchemeCatalog.Shared;
        Assert.Equal(shared ? 1 : 2, stats.Select(s => s.SchedulerId).Distinct().Count());
        switch (name)
        {
            case SchemeCatalog.TplDefault:
                Assert.All(stats, s => Assert.Equal(TaskScheduler.Default.Id, s.SchedulerId));
                Assert.All(stats, s => Assert.False(s.Pinned));
                break;
            case SchemeCatalog.OversubscribedFree:
                // One free scheduler per program, each with a worker per core.
                AssertWorkStealing(stats, cores);
                Assert.All(stats, s => Assert.False(s.Pinned));
                Assert.All(stats, s => Assert.Null(s.Processors));
                break;
            case SchemeCatalog.OversubscribedPinned:
                // One scheduler per program, each with a worker pinned to every core.
                AssertWorkStealing(stats, cores);
                Assert.All(stats, s => Assert.True(s.Pinned));
                Assert.All(stats, s => Assert.Equal(processors, s.Processors!));
                break;
            case SchemeCatalog.Shared:
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
    [InlineData(SchemeCatalog.DynamicPartitioned)]
    [InlineData(SchemeCatalog.IdleLending)]
    public async Task DynamicSchemes_MoveWorkersWhenAProgramRunsOutOfTasks(string name)
    {
        // p0 spends most of each run in one serial task (no task available: its second worker should go to p1);
        // p1 always has many tasks. Arrival alone makes 3 moves on 2+ cores (all workers to p0, then p1's share).
        SchemeDescriptor scheme = BuiltInSchemes.CreateRegistry().Find(name)!;
        IReadOnlyList<int> processors = ThreadAffinity.GetProcessAffinity();
        if (processors.Count < 2)
        {
            return; // one core cannot be divided: nothing can move
        }

        IWorkloadProgram[] programs =
        [
            new SyntheticSpinProgram("serial", 60_000_000, 4, 0.9, 1),
            new SyntheticSpinProgram("parallel", 4_000_000, 64, 0, 2),
        ];
        var context = new SchemeContext(programs.Select(p => (p.Name, (double?)1.5)).ToArray(), processors);
        long moves = 0;
        for (int attempt = 0; attempt < 5 && moves <= processors.Count + 1; attempt++)
        {
            (IReadOnlyList<SchedulerStats> stats, _) = await RunPhase(scheme, context, programs, TimeSpan.FromSeconds(1.5));
            moves = stats.Sum(s => s.MovesIn ?? 0);
        }

        Assert.True(moves > processors.Count + 1, $"{name}: only {moves} moves in, no more than the programs' arrival needs.");
    }

    [Theory]
    [InlineData(SchemeCatalog.StaticPartitioned)]
    [InlineData(SchemeCatalog.HillClimbing)]
    public async Task StaticScheme_FewerCoresThanPrograms_CoresRotate_EveryProgramRecordsRuns(string name)
    {
        // 2 cores, 3 programs: without rotation the least scalable program would hold no core for the whole phase.
        // The scheme re-decides every 100 ms and the policy rotates the cores, so every program finishes runs.
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();
        if (processors.Length < 2)
        {
            return; // needs fewer cores than programs with at least two cores to divide
        }

        IWorkloadProgram[] programs = Enumerable.Range(0, 3)
            .Select(i => (IWorkloadProgram)new SyntheticSpinProgram($"p{i}", 200_000, 4, 0.1 * i, i + 1))
            .ToArray();
        SchemeRegistry registry = BuiltInSchemes.CreateRegistry();
        var settings = new CyclicSettings(TimeSpan.FromSeconds(3), SpRuns: 1, WarmupRuns: 0, processors, Seed: 1,
            StopGrace: TimeSpan.FromSeconds(20), RunTimeout: TimeSpan.FromSeconds(30));
        var plan = new CyclicPlan("cyclic", programs, [registry.Find(name)!], registry.Find(SchemeCatalog.OversubscribedFree)!, "small", settings);

        // The claim needs rotations to have happened: the phase's limit is wall time, and a process stalled through it
        // (seen once at load average 20-32: a 3 s phase whose statistics window closed 17.4 s after the programs were
        // added) leaves the cores where the arrivals put them, with a program that got none: a 100 ms tick never came.
        // Such a phase is measured again; a pool that does not tick fails below all the same.
        SchemeResult scheme = null!;
        long ticks = 0;
        for (int attempt = 0; attempt < 3 && ticks < EnoughTicks; attempt++)
        {
            CyclicResult result = await HarnessThread.RunAsync(() => new CyclicExperiment(TimeProvider.System).RunAsync(plan)).WaitAsync(TimeSpan.FromSeconds(90));
            scheme = Assert.Single(result.Schemes);
            ticks = (scheme.Schedulers.Max(s => s.Repartitions) ?? 0) - programs.Length; // one decision per arrival
        }

        string state = $"{name}: {ticks} decisions after the arrivals; per program runs, core-seconds, moves in: "
            + string.Join("; ", scheme.Programs.Zip(scheme.Schedulers, (p, s) => $"{p.Program} {p.Runs}, {s.CoreSeconds:0.000}, {s.MovesIn}"));
        Assert.True(ticks >= EnoughTicks, $"The pool never ticked {EnoughTicks} times in a measured phase of 3 ({state}).");
        Assert.All(scheme.Programs, p => Assert.True(p.Runs > 0, $"{p.Program} recorded no run ({state})"));
        Assert.Equal(processors.Length, scheme.Schedulers.Sum(s => s.Workers));
        Assert.All(scheme.Schedulers, s => Assert.True(s.CoreSeconds > 0, $"a program never held a core ({state})"));
        Assert.NotNull(scheme.Antt);
    }

    // Periodic decisions (100 ms apart) a phase must have seen for the rotation test to say anything: with 3 programs on
    // 2 cores each program gets a core at least every second decision, so 10 give each one at least 5 turns.
    private const int EnoughTicks = 10;

    private static async Task<(IReadOnlyList<SchedulerStats> Stats, PhaseResult Phase)> RunPhase(
        SchemeDescriptor scheme, SchemeContext context, IWorkloadProgram[] programs, TimeSpan duration)
    {
        using SchedulerArrangement arrangement = scheme.Create(context);
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

        // Every partitioned scheme re-decides every 100 ms (the static ones so that cores can rotate when there are
        // fewer cores than programs). Here cores ≥ programs, so a static scheme's ticks change nothing: the only moves
        // are the arrivals' (all cores to the first program, then the second program's share).
        long repartitions = stats.Max(s => s.Repartitions!.Value);
        Assert.True(repartitions > 2, $"{name}: {repartitions} repartitionings in 1.5 s");
        if (StaticSchemes.Contains(name))
        {
            Assert.Equal(cores + (long)stats[1].Workers!.Value, stats.Sum(s => s.MovesIn ?? 0));
        }
        else
        {
            Assert.Contains(name, DynamicSchemes);
        }
    }
}
