using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;
using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>The simulator runs the scheduler's online estimator (the same ScalabilityTracker) on its per-program counters.</summary>
public sealed class SimulatorOnlineScalabilityTests
{
    private sealed class RecordingPolicy : IPartitioningPolicy
    {
        private readonly EqualSharesPolicy _inner = new();

        public List<PartitioningInput> Inputs { get; } = [];

        public string Name => "recording";

        public Shares Decide(PartitioningInput input)
        {
            Inputs.Add(input);
            return _inner.Decide(input);
        }
    }

    private static SimulationRequest Request() => new()
    {
        Cores = 8,
        Programs =
        [
            SimModels.Sortlike("sortlike", 3_000_000, 60_000_000),
            SimModels.Parallel("parallel", 30_000_000, sequentialNs: 20_000_000),
        ],
        Schemes = [SchemeCatalog.EqualShares],
        DurationNs = 5_000_000_000,
        SpRuns = 2,
    };

    private static (Machine Machine, RecordingPolicy Policy, IReadOnlyList<IsolatedResult> Isolated) Run()
    {
        SimulationRequest request = Request();
        var policy = new RecordingPolicy();
        IReadOnlyList<IsolatedResult> isolated = CyclicSimulator.Isolate(request, withTables: false);
        Machine m = CyclicSimulator.BuildMachine(request, isolated, SchemeArrangement.Partitioned, new PartitioningSetup(policy, Estimation: new ScalabilityEstimatorOptions()));
        m.RunCyclic(request.DurationNs);
        return (m, policy, isolated);
    }

    [Fact]
    public void EveryProgram_EndsWithAnEstimate_AndThePolicyIsGivenIt_Deterministically()
    {
        (Machine m, RecordingPolicy policy, IReadOnlyList<IsolatedResult> isolated) = Run();

        IReadOnlyList<ScalabilityEstimate> estimates = m.Estimates!;
        Assert.All(estimates, e => Assert.True(e.HasEstimate));
        Assert.All(estimates, e => Assert.InRange(e.Scalability, 1, 8));

        // The first decisions see the default (1: no estimate yet), the last the estimates, never the model's values.
        Assert.All(policy.Inputs[0].Programs, p => Assert.Equal(1.0, p.Scalability));
        PartitioningInput last = policy.Inputs[^1];
        Assert.All(last.Programs, p => Assert.NotEqual(isolated[p.ProgramId].Scalability, p.Scalability));
        Assert.All(last.Programs, p => Assert.Equal(estimates[p.ProgramId].Scalability, p.Scalability, 0.02 * p.Scalability));

        // The serial 20 ms of each 50 ms run of 'parallel' shows as idle time: it scales worse than the sort on 8 cores,
        // in the estimates as in the model.
        Assert.Equal(isolated[0].Scalability > isolated[1].Scalability, estimates[0].Scalability > estimates[1].Scalability);

        (Machine again, _, _) = Run();
        Assert.Equal(estimates, again.Estimates!);
    }
}
