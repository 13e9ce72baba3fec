using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>The schemes' arrangements behave as modelled: free threads migrate to idle cores, pinned ones cannot.</summary>
public sealed class SimulatorSchemeTests
{
    private static SimulationRequest Request(string scheme) => new()
    {
        Cores = 4,
        Programs =
        [
            // Mostly one long sequential task: its thread needs a core, any core.
            SimModels.Parallel("serial", 4_000_000, sequentialNs: 200_000_000),
            SimModels.Parallel("wide", 400_000_000),
        ],
        Schemes = [scheme],
        DurationNs = 3_000_000_000,
        SpRuns = 2,
        Parameters = new SimulationParameters { QuantumNs = 2_000_000 },
    };

    private static Ran Run(string scheme) => Ran.Of(CyclicSimulator.Run(Request(scheme)));

    [Fact]
    public void FreeThreads_UseEveryCore_PinnedThreadsWaitForTheirOwn()
    {
        Ran free = Run(SchemeCatalog.OversubscribedFree);
        Ran pinned = Run(SchemeCatalog.OversubscribedPinned);

        // Free: 5 runnable threads share 4 cores, the serial program's thread gets about 4/5 of a core.
        // Pinned: it shares its own core with one of the wide program's workers, so it gets 1/2.
        double freeSerial = free.Programs[0].Ntt!.Mean, pinnedSerial = pinned.Programs[0].Ntt!.Mean;
        Assert.True(pinnedSerial > freeSerial * 1.2, $"pinned {pinnedSerial} vs free {freeSerial}");
        Assert.InRange(pinnedSerial, 1.6, 2.3);
        Assert.True(free.Counters.ColdStarts > 0, "free threads move between cores");
        Assert.Equal(0, pinned.Counters.ColdStarts);
        Assert.True(free.Counters.Preemptions > 0 && pinned.Counters.Preemptions > 0, "both time-slice");
    }

    [Fact]
    public void Shared_And_Partitioned_NeverTimeSlice()
    {
        foreach (string scheme in new[] { SchemeCatalog.Shared, SchemeCatalog.StaticPartitioned, SchemeCatalog.DynamicPartitioned })
        {
            Ran s = Run(scheme);
            Assert.Equal(0, s.Counters.Preemptions);
            Assert.Equal(0, s.Counters.ContextSwitches);
        }
    }

    [Fact]
    public void DynamicRepartitioning_MovesWorkersToTheProgramWithTasks_StaticDoesNot()
    {
        Ran dynamic = Run(SchemeCatalog.DynamicPartitioned);
        Ran fixedShares = Run(SchemeCatalog.StaticPartitioned);

        Assert.True(dynamic.Counters.WorkerMoves > 0);
        // Static partitioning is asked every tick too (as in the harness), and with more cores than programs its
        // answer never changes: no worker moves.
        Assert.Equal(0, fixedShares.Counters.WorkerMoves);
        Assert.True(dynamic.Counters.PolicyCalls > 1);
        Assert.Equal(dynamic.Counters.PolicyCalls, fixedShares.Counters.PolicyCalls);
        // While the serial program has one task, task availability gives its idle cores to the wide one.
        Assert.True(dynamic.Programs[1].Ntt!.Mean < fixedShares.Programs[1].Ntt!.Mean,
            $"wide: dynamic {dynamic.Programs[1].Ntt!.Mean} vs static {fixedShares.Programs[1].Ntt!.Mean}");
    }

    /// <summary>
    /// Fewer cores than programs: every partitioned scheme rotates the cores at its ticks (as the harness's
    /// MultiProgramScheduler does), so each program gets core time and records runs; none is starved.
    /// </summary>
    [Theory]
    [InlineData(SchemeCatalog.StaticPartitioned)]
    [InlineData(SchemeCatalog.DynamicPartitioned)]
    public void WithFewerCoresThanPrograms_PartitionedSchemesRotate_AndNoProgramIsStarved(string scheme)
    {
        var request = new SimulationRequest
        {
            Cores = 2,
            Programs =
            [
                SimModels.Parallel("a", 60_000_000),
                SimModels.Parallel("b", 60_000_000),
                SimModels.Parallel("c", 60_000_000),
            ],
            Schemes = [scheme],
            DurationNs = 3_000_000_000,
            SpRuns = 2,
        };

        Ran result = Ran.Of(CyclicSimulator.Run(request));

        Assert.True(result.Counters.WorkerMoves > 0, "the cores rotate");
        Assert.All(result.Programs, p => Assert.NotNull(p.Ntt));
    }

    /// <summary>The one scheme of a simulation with its counters.</summary>
    private sealed record Ran(SchemeResult Scheme, SimulationCounters Counters)
    {
        public IReadOnlyList<ProgramResult> Programs => Scheme.Programs;

        public static Ran Of(SimulationResult result) => new(Assert.Single(result.Schemes), Assert.Single(result.Counters).Value);
    }
}
