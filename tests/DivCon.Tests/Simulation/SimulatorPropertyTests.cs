using DivCon.Simulation;
using DivCon.Simulation.Engine;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Simulation;

/// <summary>
/// Seeded random machines, programs and schemes: whatever the costs (zero included) and the memory contention, every
/// core-nanosecond is accounted for, no task is lost or run twice, and every program makes progress.
/// </summary>
public sealed class SimulatorPropertyTests
{
    private static ProgramModel RandomModel(SimRandom r, int index)
    {
        int b = new[] { 2, 2, 3, 7 }[r.Next(4)];
        int levels = 1 + r.Next(4);
        var profile = new List<LevelProfile>();
        long nodes = 1;
        for (int l = 1; l <= levels; l++)
        {
            profile.Add(new LevelProfile(l, nodes, r.Next(3) == 0 ? 0 : r.Next(3_000_000), 0, 0, nodes, r.Next(2) == 0 ? 0 : r.Next(3_000_000)));
            nodes *= b;
        }

        profile.Add(new LevelProfile(levels + 1, 0, 0, nodes, 1_000_000 + r.Next(40_000_000), 0, 0));
        return new ProgramModel
        {
            Name = $"p{index}",
            Source = "random",
            BranchingFactor = b,
            ProblemSize = 1 << 20,
            WorkExponent = 1,
            MusclesPerCore = 1 + r.Next(6),
            LevelGrowth = 0.5 + r.NextDouble(),
            SequentialNs = r.Next(3) == 0 ? r.Next(5_000_000) : 0,
            Imbalance = r.Next(2) == 0 ? new ImbalanceModel(0.2, 0.8) : null,
            Levels = profile,
            MemoryIntensity = r.Next(3) == 0 ? 0 : 2 * r.NextDouble(),
        };
    }

    private static SimulationParameters RandomParameters(SimRandom r) => (r.Next(4) == 0
        ? SimulationParameters.Ideal with { QuantumNs = 100_000 + r.Next(5_000_000), RepartitionIntervalNs = 10_000_000 + r.Next(100_000_000) }
        : new SimulationParameters
        {
            DispatchNs = r.Next(1000),
            StealNs = r.Next(5000),
            FailedStealNs = r.Next(1000),
            SpinAttempts = r.Next(100),
            WakeNs = r.Next(20_000),
            QuantumNs = 100_000 + r.Next(5_000_000),
            ContextSwitchNs = r.Next(20_000),
            MigrationNs = r.Next(100_000),
            RepartitionIntervalNs = 10_000_000 + r.Next(100_000_000),
        }) with
        {
            MemoryContention = r.Next(3) == 0 ? 0 : 3 * r.NextDouble(), // work inflation (Machine.Memory.cs), off in a third of the machines
        };

    private static void CheckOne(ulong seed)
    {
        var r = new SimRandom(seed);
        int programs = 1 + r.Next(4);
        var request = new SimulationRequest
        {
            Cores = 1 + r.Next(40),
            Programs = Enumerable.Range(0, programs).Select(i => RandomModel(r, i)).ToArray(),
            Schemes = [SchemeCatalog.Simulated[r.Next(SchemeCatalog.Simulated.Count)].Name],
            Seed = seed,
            DurationNs = 300_000_000,
            SpRuns = 1,
            Parameters = RandomParameters(r),
        };
        string scheme = request.Schemes[0];
        IReadOnlyList<IsolatedResult> isolated = CyclicSimulator.Isolate(request, withTables: scheme == "hill-climbing");
        Assert.All(isolated, i => Assert.True(i.Scalability > 0 && i.Scalability <= request.Cores * 1.000001, $"seed {seed}: scalability {i.Scalability}"));
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(scheme);
        Machine m = CyclicSimulator.BuildMachine(request, isolated, arrangement, setup);

        m.RunCyclic(request.DurationNs);

        string context = $"seed {seed}, {scheme}, {request.Cores} cores, {programs} programs";
        Assert.True(request.Cores * request.DurationNs == m.Buckets.Sum() + m.IdleNs, context);
        Assert.True(m.TasksAccountedFor, context);
        long completed = m.Programs.Sum(p => p.RunWorkNs.Sum());
        Assert.True(m.Buckets[(int)StepKind.Task] >= completed, context);
        Assert.True(m.Buckets[Machine.InflationBucket] >= 0, context);
        Assert.True(m.Buckets[Machine.InflationBucket] == 0 || (request.Parameters.MemoryContention > 0 && request.Cores > 1), context);
        Assert.All(m.Programs, p => Assert.All(p.Durations, d => Assert.True(d > 0 || p.RunWorkNs.Sum() == 0, context)));
    }

    [Fact]
    public void RandomMachines_AccountForEveryNanosecondAndTask()
    {
        for (ulong seed = 1; seed <= 25; seed++)
        {
            CheckOne(seed);
        }
    }

    [StressFact]
    [Trait("Category", "Stress")]
    public void RandomMachines_AccountForEveryNanosecondAndTask_Long()
    {
        for (ulong seed = 1000; seed < 1600; seed++)
        {
            CheckOne(seed);
        }
    }
}
