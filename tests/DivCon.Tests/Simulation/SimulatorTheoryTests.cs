using DivCon.Simulation;
using DivCon.Simulation.Engine;

namespace DivCon.Tests.Simulation;

/// <summary>Must-show 2: the simulator against theory (speedup N, Amdahl's bound, work conservation).</summary>
public sealed class SimulatorTheoryTests
{
    // 4 leaves per core; divisible by 4·256 so every leaf costs a whole number of ns.
    private const long Work = 1_024_000_000;

    internal static (Machine Machine, SimProgram Program, long Duration) RunAlone(ProgramModel model, int cores, SimulationParameters parameters, ulong seed = 1)
    {
        var shape = new TaskTreeShape(model, cores);
        var pool = new WorkPool(0, cores);
        var program = new SimProgram { Index = 0, Shape = shape, Seed = seed, Pool = pool };
        var machine = new Machine(cores, parameters, SchemeArrangement.Shared, [program], [pool], seed);
        long duration = machine.RunIsolated(program);
        return (machine, program, duration);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    [InlineData(16)]
    [InlineData(64)]
    [InlineData(256)]
    public void PerfectlyParallel_OnAnIdealMachine_TakesExactlyWorkOverN(int cores)
    {
        (Machine m, SimProgram p, long duration) = RunAlone(SimModels.Parallel("p", Work), cores, SimulationParameters.Ideal);

        Assert.Equal(Work / cores, duration);                 // speedup exactly N
        Assert.Equal(Work, p.RunWorkNs[0]);                   // the tree's leaves carry all the work
        Assert.Equal(Work, m.Buckets[(int)StepKind.Task]);
        Assert.True(m.TasksAccountedFor);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(16)]
    [InlineData(64)]
    [InlineData(256)]
    public void PerfectlyParallel_WithOverheads_SpeedupIsNMinusExactlyTheModelledOverheads(int cores)
    {
        // Leaves of 10 ms at 256 cores: the wake-up chain that ramps the workers up (one 5 µs wake after another)
        // and the steals are then a few percent of the run.
        const long work = 10 * Work;
        var parameters = new SimulationParameters();
        (Machine m, _, long duration) = RunAlone(SimModels.Parallel("p", work), cores, parameters);

        long overhead = m.Buckets.Sum() - m.Buckets[(int)StepKind.Task];
        // Every core-nanosecond is a task, a modelled overhead, or idle: N·T = W + overheads + idle, exactly.
        Assert.Equal((long)cores * duration, work + overhead + m.IdleNs);
        double speedup = (double)work / duration;
        Assert.Equal((double)cores * work / (work + overhead + m.IdleNs), speedup, 12);
        Assert.True(overhead > 0 || cores == 1, "dispatches and steals cost something");
        Assert.True(speedup < cores, $"overheads must cost something: speedup {speedup} on {cores} cores");
        Assert.True(speedup > 0.9 * cores, $"4 leaves of {work / (4 * cores)} ns per core should keep speedup near N: {speedup}");
    }

    [Theory]
    [InlineData(2, 0.1)]
    [InlineData(16, 0.05)]
    [InlineData(64, 0.02)]
    [InlineData(256, 0.3)]
    public void SequentialFraction_OnAnIdealMachine_IsAmdahlExactly_AndWithOverheadsBelowTheBound(int cores, double fraction)
    {
        long sequential = (long)(fraction / (1 - fraction) * Work);
        ProgramModel model = SimModels.Parallel("amdahl", Work, sequential);

        (_, SimProgram ideal, long idealDuration) = RunAlone(model, cores, SimulationParameters.Ideal);
        Assert.Equal(sequential + (Work / cores), idealDuration);
        Assert.Equal(sequential + Work, ideal.RunWorkNs[0]);

        (_, SimProgram real, long realDuration) = RunAlone(model, cores, new SimulationParameters());
        double f = (double)sequential / (sequential + Work);
        double amdahl = 1 / (f + ((1 - f) / cores));
        double speedup = (double)real.RunWorkNs[0] / realDuration;
        Assert.True(speedup <= amdahl, $"speedup {speedup} exceeds Amdahl's bound {amdahl}");
        Assert.True(speedup > 0.9 * amdahl, $"speedup {speedup} far below Amdahl's bound {amdahl}");
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(64)]
    public void ImbalancedTree_TaskTimeEqualsTheCostOfEveryTaskCreated(int cores)
    {
        ProgramModel model = SimModels.Sortlike("q", 2_000_000, 50_000_000, imbalance: new ImbalanceModel(0.3, 0.7));
        (Machine m, SimProgram p, long duration) = RunAlone(model, cores, new SimulationParameters(), seed: 5);

        Assert.Equal(p.RunWorkNs[0], m.Buckets[(int)StepKind.Task]);
        Assert.Equal((long)cores * duration, m.Buckets.Sum() + m.IdleNs);
        Assert.Equal(m.TasksCreated, m.TasksExecuted);
    }

    public static TheoryData<string, int> SchemesAndCores()
    {
        var data = new TheoryData<string, int>();
        foreach (string scheme in SchemeCatalog.Simulated.Select(s => s.Name).ToArray())
        {
            data.Add(scheme, 3);
            data.Add(scheme, 16);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SchemesAndCores))]
    public void EveryScheme_ConservesCoreTime_AndLosesNoTask(string scheme, int cores)
    {
        var request = new SimulationRequest
        {
            Cores = cores,
            Programs =
            [
                SimModels.Parallel("wide", 40_000_000),
                SimModels.Sortlike("sortlike", 1_000_000, 20_000_000, imbalance: new ImbalanceModel(0.3, 0.7)),
                SimModels.Parallel("serial", 5_000_000, sequentialNs: 10_000_000),
            ],
            Schemes = [scheme],
            DurationNs = 700_000_000,
            SpRuns = 2,
            Parameters = new SimulationParameters { QuantumNs = 2_000_000 },
        };
        IReadOnlyList<IsolatedResult> isolated = CyclicSimulator.Isolate(request, withTables: scheme == "hill-climbing");
        (SchemeArrangement arrangement, PartitioningSetup? setup) = CyclicSimulator.Resolve(scheme);
        Machine m = CyclicSimulator.BuildMachine(request, isolated, arrangement, setup);

        m.RunCyclic(request.DurationNs);

        Assert.Equal(cores * request.DurationNs, m.Buckets.Sum() + m.IdleNs);
        Assert.True(m.TasksAccountedFor, $"created {m.TasksCreated}, executed {m.TasksExecuted}, queued {m.TasksQueued}, in progress {m.TasksInProgress}");
        Assert.All(m.Programs, p => Assert.NotEmpty(p.Durations));
        // Every completed run's tasks ran exactly once: the task time covers at least their cost.
        long completedWork = m.Programs.Sum(p => p.RunWorkNs.Sum());
        Assert.InRange(m.Buckets[(int)StepKind.Task], completedWork, completedWork + m.Programs.Sum(p => p.Current?.CreatedCostNs ?? 0));
    }

    [Fact]
    public void CyclicProtocol_RestartsAtOnce_AndDiscardsTheRunCutByTheLimit()
    {
        const int cores = 8;
        var request = new SimulationRequest
        {
            Cores = cores,
            Programs = [SimModels.Parallel("alone", Work)],
            Schemes = [SchemeCatalog.Shared],
            DurationNs = (Work / cores * 10) + (Work / cores / 2), // ten and a half runs
            SpRuns = 3,
            Parameters = SimulationParameters.Ideal,
        };

        SimulationResult result = CyclicSimulator.Run(request);

        ProgramResult p = Assert.Single(Assert.Single(result.Schemes).Programs);
        Assert.Equal(10, p.Runs);
        Assert.Equal(Work / cores / 1e9, p.Cmp!.Mean, 12); // every run the same: mean Work/cores, no spread
        Assert.Equal(0, p.Cmp.StandardDeviation!.Value, 12);
        Assert.Equal(1.0, p.Ntt!.Mean, 12);
        Assert.Equal(cores, result.Isolated[0].Scalability, 9);
    }

    [Theory]
    [InlineData("shared")]
    [InlineData("oversubscribed-free")]
    [InlineData("oversubscribed-pinned")]
    [InlineData("static-partitioned")]
    public void PerfectlyParallelPrograms_CannotBeatTheMachine_StpAtMostOne(string scheme)
    {
        var request = new SimulationRequest
        {
            Cores = 8,
            Programs = [SimModels.Parallel("a", 80_000_000), SimModels.Parallel("b", 40_000_000)],
            Schemes = [scheme],
            DurationNs = 2_000_000_000,
            SpRuns = 2,
            Parameters = SimulationParameters.Ideal with { QuantumNs = 1_000_000 },
        };

        SchemeResult s = Assert.Single(CyclicSimulator.Run(request).Schemes);

        // Σ NP_i = Σ (W_i/N) / C^MP_i is the fraction of the machine's capacity used: at most 1 (plus the bias of the
        // runs cut at the limit, a few percent here).
        Assert.InRange(s.Stp!.Mean, 0.85, 1.03);
    }
}
