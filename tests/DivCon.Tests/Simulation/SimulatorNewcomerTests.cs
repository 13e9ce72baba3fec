using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>
/// The simulator gives the repartitioner the same input as the mover, the programs' attained service (their task steps'
/// time), so short jobs first (<see cref="NewcomerPriority"/>) runs the same code on virtual cores when it is switched on.
/// </summary>
public sealed class SimulatorNewcomerTests
{
    /// <summary>Records every input; gives the first program 2 of the 8 cores, the second the rest.</summary>
    private sealed class RecordingPolicy : IPartitioningPolicy
    {
        public List<PartitioningInput> Inputs { get; } = [];

        public string Name => "recording";

        public Shares Decide(PartitioningInput input)
        {
            Inputs.Add(input);
            return Shares.FromCounts(input, [2, input.Cores - 2], reason: AllocationReason.ScalabilityShare);
        }
    }

    private static (Machine Machine, RecordingPolicy Policy) Run(TimeSpan quantum)
    {
        var request = new SimulationRequest
        {
            Cores = 8,
            Programs =
            [
                SimModels.Sortlike("first", 3_000_000, 60_000_000),
                SimModels.Parallel("second", 30_000_000, sequentialNs: 20_000_000),
            ],
            Schemes = [SchemeCatalog.StaticPartitioned],
            DurationNs = 1_050_000_000,
            SpRuns = 2,
        };
        var policy = new RecordingPolicy();
        IReadOnlyList<IsolatedResult> isolated = CyclicSimulator.Isolate(request, withTables: false);
        Machine m = CyclicSimulator.BuildMachine(request, isolated, Arrangement.Partitioned, new PartitioningSetup(policy, Ticks: true));
        m.NewcomerQuantum = quantum;
        m.RunCyclic(request.DurationNs);
        return (m, policy);
    }

    [Fact]
    public void Loads_carry_the_attained_service_and_newcomers_share_the_cores_until_they_pass_the_quantum()
    {
        (Machine on, RecordingPolicy policy) = Run(MultiProgramSchedulerOptions.DefaultNewcomerQuantum);

        // Every load has its attained service, zero at the start, never decreasing, past the quantum by the first tick.
        Assert.All(policy.Inputs[0].Programs, p => Assert.Equal(TimeSpan.Zero, p.AttainedService));
        for (int call = 1; call < policy.Inputs.Count; call++)
        {
            for (int i = 0; i < 2; i++)
            {
                Assert.True(policy.Inputs[call].Programs[i].AttainedService >= policy.Inputs[call - 1].Programs[i].AttainedService);
            }
        }

        Assert.All(policy.Inputs[1].Programs, p => Assert.True(p.AttainedService >= MultiProgramSchedulerOptions.DefaultNewcomerQuantum));

        // Both programs start as newcomers with queued tasks: 4 cores each until the first tick (100 ms), then the
        // policy's 2 and 6. Off, the policy's split holds from the start.
        (Machine off, _) = Run(TimeSpan.Zero);
        long[] allocatedOn = on.AllocatedCoreNs!, allocatedOff = off.AllocatedCoreNs!;
        Assert.Equal(2L * 1_050_000_000, allocatedOff[0]);
        Assert.Equal((4L * 100_000_000) + (2L * 950_000_000), allocatedOn[0]);
        Assert.Equal(8L * 1_050_000_000, allocatedOn.Sum());
    }
}
