using DivCon.Partitioning;
using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>The MultiProgramScheduler's policies are called through IPartitioningPolicy with the simulated program state.</summary>
public sealed class SimulatorPolicyTests
{
    /// <summary>Records every input; gives the first program 2 cores and the second the rest, then the reverse, alternately, so workers move.</summary>
    private sealed class RecordingPolicy : IPartitioningPolicy
    {
        public List<PartitioningInput> Inputs { get; } = [];

        public List<Shares> Outputs { get; } = [];

        public string Name => "recording";

        public Shares Decide(PartitioningInput input)
        {
            Inputs.Add(input);
            int first = Inputs.Count % 2 == 1 ? 2 : input.Cores - 2;
            var shares = Shares.FromCounts(input, [first, input.Cores - first], reason: AllocationReason.Fixed);
            Outputs.Add(shares);
            return shares;
        }
    }

    private static SimulationRequest Request(int cores, long durationNs) => new()
    {
        Cores = cores,
        Programs =
        [
            SimModels.Sortlike("first", 3_000_000, 60_000_000),
            SimModels.Parallel("second", 30_000_000, sequentialNs: 20_000_000),
        ],
        Schemes = [SchemeCatalog.StaticPartitioned],
        DurationNs = durationNs,
        SpRuns = 2,
    };

    /// <summary>Measures the programs alone, then runs the cyclic phase of <paramref name="request"/> on the arrangement.</summary>
    private static (Machine Machine, IReadOnlyList<IsolatedResult> Isolated) RunCyclic(
        SimulationRequest request, SchemeArrangement arrangement, PartitioningSetup? setup)
    {
        IReadOnlyList<IsolatedResult> isolated = CyclicSimulator.Isolate(request, withTables: false);
        Machine m = CyclicSimulator.BuildMachine(request, isolated, arrangement, setup);
        m.RunCyclic(request.DurationNs);
        return (m, isolated);
    }

    [Fact]
    public void RepartitioningTick_CallsThePolicyEveryInterval_WithScalabilitiesAndAvailableTasks()
    {
        var policy = new RecordingPolicy();

        (Machine m, IReadOnlyList<IsolatedResult> isolated) =
            RunCyclic(Request(cores: 8, durationNs: 1_050_000_000), SchemeArrangement.Partitioned, new PartitioningSetup(policy));

        // At 0 and at every 100 ms up to 1.05 s: 0, 100, …, 1000 ms.
        Assert.Equal(11, policy.Inputs.Count);
        Assert.Equal(11, m.Counters().PolicyCalls);
        for (int call = 0; call < policy.Inputs.Count; call++)
        {
            PartitioningInput input = policy.Inputs[call];
            Assert.Equal(8, input.Cores);
            Assert.Equal(2, input.Programs.Count);
            Assert.Equal([0, 1], input.Programs.Select(p => p.ProgramId));
            Assert.Equal(isolated.Select(i => i.Scalability), input.Programs.Select(p => p.Scalability));
            Assert.All(input.Programs, p => Assert.True(p.AvailableTasks >= 0));
            // The allocation in force is the previous decision, placed (keyed by program id).
            Assert.Equal(call == 0, input.Previous is null);
            if (call > 0)
            {
                Assert.Equal([policy.Outputs[call - 1].CoresOf(0), policy.Outputs[call - 1].CoresOf(1)], [input.Previous!.CoresOf(0), input.Previous.CoresOf(1)]);
            }
        }

        // The first decision sees each program's first run queued and nothing else: one task each.
        Assert.Equal([1, 1], policy.Inputs[0].Programs.Select(p => p.AvailableTasks));
        // Later ticks see the trees' queued tasks.
        Assert.Contains(policy.Inputs.Skip(1), i => i.Programs.Any(p => p.AvailableTasks > 1));
        // Each change of the allocation moves four workers (2 + 6 -> 6 + 2), at ten ticks.
        Assert.True(m.Counters().WorkerMoves >= 4 * 10, $"only {m.Counters().WorkerMoves} moves");
        Assert.True(m.TasksAccountedFor);
        Assert.All(m.Programs, p => Assert.NotEmpty(p.Durations));
    }

    [Fact]
    public void StaticPartitionedScheme_UsesTheRealScalabilityPolicy_AndHoldsItsShares()
    {
        SimulationRequest request = Request(cores: 16, durationNs: 500_000_000);
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(SchemeCatalog.StaticPartitioned);

        (Machine m, IReadOnlyList<IsolatedResult> isolated) = RunCyclic(request, arrangement, setup);

        Assert.IsType<ScalabilityPolicy>(setup!.Policy);
        ScalabilityPlan plan = ScalabilityPolicy.Compute(16, isolated.Select(i => i.Scalability).ToArray());
        Assert.Equal(plan.Base.Select(c => (long)c * request.DurationNs), m.AllocatedCoreNs!);
        // No move: each program's workers served it exactly the core-time its allocation gave it.
        Assert.Equal(m.AllocatedCoreNs!, m.ServedCoreNs()!);
    }

    [Fact]
    public void ServedCoreTime_AddsUpToTheCores_AndLagsTheAllocationWhileMovesWaitForTaskBoundaries()
    {
        SimulationRequest request = Request(cores: 16, durationNs: 1_000_000_000);
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(SchemeCatalog.DemandPartitioned);

        (Machine m, _) = RunCyclic(request, arrangement, setup);

        long[] served = m.ServedCoreNs()!;
        Assert.Equal(16L * request.DurationNs, served.Sum());
        Assert.Equal(m.AllocatedCoreNs!.Sum(), served.Sum());
        Assert.True(m.Counters().WorkerMoves > 0);
        Assert.NotEqual(m.AllocatedCoreNs!, served); // a moved worker serves its new program only from its task boundary on
    }

    [Fact]
    public void IdleLending_LendsWorkersOfAProgramWithoutTasks()
    {
        SimulationRequest request = Request(cores: 8, durationNs: 1_000_000_000) with { Schemes = [IdleLendingPolicy.PolicyName] };
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(IdleLendingPolicy.PolicyName);

        (Machine m, _) = RunCyclic(request, arrangement, setup);

        // The second program's 20 ms sequential part leaves its workers idle: they are lent to the first.
        Assert.True(m.Counters().Loans > 0);
        Assert.True(m.TasksAccountedFor);
    }
}
