using System.Text.Json;
using DivCon.Metrics.Schemes;
using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>
/// The bandwidth-contention model (Machine.Memory.cs) against values computed by hand: a task of intensity m runs
/// 1 + β·m·U times slower than alone, U being the mean intensity of the tasks on the other cores.
/// </summary>
public sealed class WorkInflationTests
{
    // 4 leaves per core; divisible by 4·64 so every leaf costs a whole number of ns.
    private const long Work = 1_024_000_000;

    private static ProgramModel Memory(string name, double workNs, double intensity, long sequentialNs = 0)
    {
        ProgramModel model = SimModels.Parallel(name, workNs, sequentialNs);
        return model.Calibrated(1, intensity, 1, model.Source);
    }

    [Theory]
    [InlineData(2, 1.0, 0.5)]
    [InlineData(4, 0.5, 1.0)]
    [InlineData(16, 1.0, 0.25)]
    [InlineData(64, 0.8, 2.0)]
    public void EveryCoreMemoryBound_EveryTaskRunsOnePlusBetaMSquaredSlower(int cores, double intensity, double beta)
    {
        // Ideal costs: the root splits at once and every core runs leaves from t = 0 to the end, so U = m throughout.
        var parameters = SimulationParameters.Ideal with { MemoryContention = beta };
        (Machine m, SimProgram p, long duration) = SimulatorTheoryTests.RunAlone(Memory("m", Work, intensity), cores, parameters);

        double factor = 1 + (beta * intensity * intensity);
        Assert.Equal(Work / cores * factor, duration, tolerance: 4);          // whole ns, one rounding per leaf
        Assert.Equal(Work, m.Buckets[(int)StepKind.Task]);                   // the task bucket is still the work
        Assert.Equal(Work * (factor - 1), m.Buckets[Machine.InflationBucket], tolerance: 4.0 * cores);
        Assert.Equal((long)cores * duration, m.Buckets.Sum() + m.IdleNs);    // every core-ns accounted for
        Assert.Equal(Work, p.RunWorkNs[0]);
    }

    [Theory]
    [InlineData(0.0, 1.0)] // a compute-bound program is never slowed
    [InlineData(1.0, 0.0)] // no contention on this machine
    public void ComputeBoundOrNoContention_TakesExactlyWorkOverN(double intensity, double beta)
    {
        var parameters = SimulationParameters.Ideal with { MemoryContention = beta };
        (Machine m, _, long duration) = SimulatorTheoryTests.RunAlone(Memory("c", Work, intensity), 16, parameters);

        Assert.Equal(Work / 16, duration);
        Assert.Equal(0, m.Buckets[Machine.InflationBucket]);
    }

    [Fact]
    public void OneCore_HasNobodyToContendWith()
    {
        var parameters = SimulationParameters.Ideal with { MemoryContention = 1 };
        (Machine m, _, long duration) = SimulatorTheoryTests.RunAlone(Memory("m", Work, 1), 1, parameters);

        Assert.Equal(Work, duration);
        Assert.Equal(0, m.Buckets[Machine.InflationBucket]);
    }

    [Theory]
    [InlineData(1.0, 1.0, 0.5)]
    [InlineData(0.6, 0.2, 1.0)]
    [InlineData(1.0, 0.0, 1.0)] // a compute-bound partner slows nobody and is not slowed
    public void TwoProgramsCoRunning_InflateEachOtherByBetaTimesTheProductOfTheirIntensities(double a, double b, double beta)
    {
        // Two programs whose runs are one sequential task of the same length (their D&C part is 8 ns): on 2 cores under
        // the shared scheduler each runs on its own core from t = 0, so A's task runs 1 + β·a·b times slower, and B's too.
        const long serial = 100_000_000;
        var request = new SimulationRequest
        {
            Cores = 2,
            Programs = [Memory("a", 8, a, serial), Memory("b", 8, b, serial)],
            Schemes = [SchemeCatalog.Shared],
            DurationNs = 1_000_000_000,
            SpRuns = 1,
            Parameters = SimulationParameters.Ideal with { MemoryContention = beta },
        };
        Machine machine = CyclicSimulator.BuildMachine(request, CyclicSimulator.Isolate(request, withTables: false), SchemeArrangement.Shared, null);

        machine.RunCyclic(request.DurationNs);

        double factor = 1 + (beta * a * b);
        Assert.All(machine.Programs, p => Assert.Equal(serial * factor, p.Durations[0], tolerance: 16));
    }

    [Fact]
    public void NoContention_SimulatesExactlyAsWithoutIntensities()
    {
        SimulationRequest Request(double intensity, double beta) => new()
        {
            Cores = 8,
            Programs = [Memory("x", 40_000_000, intensity), SimModels.Sortlike("y", 2_000_000, 30_000_000).Calibrated(1, intensity, 1, "test: sort-like")],
            Schemes = [.. SchemeCatalog.Simulated.Select(s => s.Name)],
            DurationNs = 500_000_000,
            SpRuns = 2,
            Parameters = new SimulationParameters { MemoryContention = beta },
        };

        string Json(SimulationRequest r) => JsonSerializer.Serialize(new SimulationFile(new Dictionary<string, string>(), new SimulationParameters(), [CyclicSimulator.Run(r)]),
            SimulationJsonContext.Files.SimulationFile);

        Assert.Equal(Json(Request(0, 0)), Json(Request(0.8, 0)));
        Assert.Equal(Json(Request(0, 0)), Json(Request(0, 1.5)));
        Assert.NotEqual(Json(Request(0, 0)), Json(Request(0.8, 1.5)));
    }

    [Theory]
    [InlineData("oversubscribed-free")]
    [InlineData("oversubscribed-pinned")]
    [InlineData("idle-lending")]
    public void WithContention_PreemptionKeepsTheWorkLeft_CoreTimeIsConserved_AndTheRunIsReproducible(string scheme)
    {
        var request = new SimulationRequest
        {
            Cores = 4,
            Programs = [Memory("x", 60_000_000, 1), SimModels.Sortlike("y", 3_000_000, 40_000_000).Calibrated(1, 0.5, 1, "test: sort-like"), Memory("z", 20_000_000, 0)],
            Schemes = [scheme],
            DurationNs = 800_000_000,
            SpRuns = 1,
            Parameters = new SimulationParameters { MemoryContention = 0.7, QuantumNs = 1_000_000 },
        };
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(scheme);
        Machine Run()
        {
            Machine m = CyclicSimulator.BuildMachine(request, CyclicSimulator.Isolate(request, withTables: false), arrangement, setup);
            m.RunCyclic(request.DurationNs);
            return m;
        }

        Machine first = Run(), second = Run();

        Assert.Equal(request.Cores * request.DurationNs, first.Buckets.Sum() + first.IdleNs);
        Assert.True(first.TasksAccountedFor);
        Assert.True(first.Buckets[Machine.InflationBucket] > 0, "memory-bound programs co-ran");
        Assert.True(first.Buckets[(int)StepKind.Task] >= first.Programs.Sum(p => p.RunWorkNs.Sum()));
        Assert.True(scheme == "idle-lending" || first.Counters().Preemptions > 0, "the oversubscribed schemes preempt mid-task");
        Assert.Equal(first.Buckets, second.Buckets);
        Assert.Equal(first.Programs.Select(p => p.Durations.ToArray()), second.Programs.Select(p => p.Durations.ToArray()));
    }
}
