using DivCon.Tests.Infrastructure;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Metrics.Throttling;

namespace DivCon.Tests.Harness;

public sealed class CyclicExperimentTests
{
    /// <summary>Marker schedulers: a fake program's run takes its "alone" time on the SP marker and its "together" time otherwise.</summary>
    private static readonly TaskScheduler s_alone = new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler;

    private static SchemeDescriptor Scheme(string name, bool requiresScalability = false) =>
        requiresScalability
            ? SchemeFakes.Partitioned(name, _ => new MarkerPool())
            : SchemeFakes.Custom(name, c => new MarkerArrangement(c.Programs.Count, null));

    private static readonly SchemeDescriptor s_spScheme =
        SchemeFakes.Custom("sp", c => new MarkerArrangement(c.Programs.Count, s_alone));

    private static CyclicSettings Settings(int repeat, TimeSpan? duration = null) =>
        new(duration ?? TimeSpan.FromSeconds(29), SpRuns: 3, WarmupRuns: 1, Repeat: repeat, Processors: [0, 1], Seed: 7,
            StopGrace: TimeSpan.FromSeconds(10), RunTimeout: TimeSpan.FromMinutes(5));

    [Fact]
    public void FullRun_MeasuresAloneThenEachScheme_AndComputesTheImpliedMetrics()
    {
        var clock = new VirtualTime();
        var lines = new List<string>();
        FakeProgram[] programs = [new(clock, "a", alone: 1, together: 2, sequential: 1.8), new(clock, "b", alone: 2, together: 3, sequential: 2.0)];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one"), Scheme("two", requiresScalability: true)], s_spScheme, "small", Settings(repeat: 2));

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock, lines.Add).RunAsync(plan));

        // C^SP: 3 recorded runs per repetition (after one warm-up), pooled over 2 repetitions.
        Assert.Equal(Enumerable.Repeat(1.0, 6), result.Baselines[0].SpSeconds);
        Assert.Equal(Enumerable.Repeat(2.0, 6), result.Baselines[1].SpSeconds);
        // Scalability = T_seq / C^SP, measured because scheme "two" needs it.
        Assert.Equal(1.8, result.Baselines[0].Scalability!.Value, 9);
        Assert.Equal(1.0, result.Baselines[1].Scalability!.Value, 9);

        foreach (SchemeResult s in result.Schemes)
        {
            Assert.Equal(2.0, s.Programs[0].Ntt!.Mean, 9);
            Assert.Equal(1.5, s.Programs[1].Ntt!.Mean, 9);
            Assert.Equal(2 * 14, s.Programs[0].Runs); // ⌊29 s / 2 s⌋ runs in each of two repetitions
            Assert.Equal(2 * 9, s.Programs[1].Runs);  // ⌊29 s / 3 s⌋
            Assert.Equal(2, s.Programs[0].Discarded);
            Assert.Equal(1.75, s.Antt!.Mean, 9);
            Assert.Equal(2.0, s.Mntt!.Mean, 9);
            Assert.Equal(0.5 + (1 / 1.5), s.Stp!.Mean, 9);
            Assert.Equal(2, s.Antt.Count);
        }

        Assert.Equal(["one", "two"], result.Schemes.Select(s => s.Scheme));
        Assert.Contains(result.Comparisons, c => c.Metric == "antt" && c.SchemeA == "one" && c.SchemeB == "two" && c.Test.Significant == false);
        Assert.Contains(lines, l => l.Contains("sp a", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("runs: a ", StringComparison.Ordinal));
        Assert.All(programs, p => Assert.True(p.Verified > 0));
        Assert.Equal("cyclic", result.Configuration.Kind);
        Assert.Equal(29, result.Configuration.DurationSeconds);
    }

    [Fact]
    public void SchemeOrder_IsShuffledPerRepetition_WithTheSeed()
    {
        var clock = new VirtualTime();
        var order = new List<string>();
        FakeProgram[] programs = [new(clock, "a", 1, 1, 1)];
        var schemes = Enumerable.Range(0, 5).Select(i => Scheme($"s{i}")).ToArray();
        var plan = new CyclicPlan("cyclic", programs, schemes, s_spScheme, "small", Settings(repeat: 4, TimeSpan.FromSeconds(2)));

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock, l =>
        {
            if (l.EndsWith("s with a", StringComparison.Ordinal))
            {
                order.Add(l);
            }
        }).RunAsync(plan));

        Assert.Equal(20, order.Count);
        var perRepetition = order.Chunk(5).Select(c => string.Join(",", c.Select(l => l.Split(' ')[5].TrimEnd(':')))).ToArray();
        Assert.True(perRepetition.Distinct().Count() > 1, string.Join(" | ", perRepetition));
        // Reports keep the plan's order whatever the run order was.
        Assert.Equal(schemes.Select(s => s.Name), result.Schemes.Select(s => s.Scheme));
    }

    [Fact]
    public void ProgramFailing_AbandonsTheTest_NamingProgramSchemeAndRepetition()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1), new(clock, "b", 1, 2, 1) { FailOnMultiprogramRun = 3 }];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings(repeat: 1));

        var e = Assert.Throws<ProgramRunException>(() => clock.Run(() => new CyclicExperiment(clock).RunAsync(plan)));

        Assert.Equal("b", e.Program);
        Assert.Contains("scheme 'one'", e.Message, StringComparison.Ordinal);
        Assert.Contains("repetition 1", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void WrongResult_IsAFailureToo()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1) { WrongResult = true }];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings(repeat: 1));

        var e = Assert.Throws<ProgramRunException>(() => clock.Run(() => new CyclicExperiment(clock).RunAsync(plan)));

        Assert.Contains("check of its result", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void SchemeThatCannotBuildItsSchedulers_IsReportedByName()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1)];
        var broken = SchemeFakes.Custom("broken", _ => throw new PlatformNotSupportedException("pinning is not supported here"));
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one"), broken], s_spScheme, "small", Settings(repeat: 1));

        var e = Assert.Throws<SchemeSetupException>(() => clock.Run(() => new CyclicExperiment(clock).RunAsync(plan)));

        Assert.Equal("broken", e.Scheme);
        Assert.Contains("pinning is not supported here", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Plan_IsValidated()
    {
        var clock = new VirtualTime();
        FakeProgram a = new(clock, "a", 1, 1, 1);
        var experiment = new CyclicExperiment(clock);

        Assert.Throws<ArgumentException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a, a], [Scheme("x")], s_spScheme, "small", Settings(1)))));
        Assert.Throws<ArgumentException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a], [], s_spScheme, "small", Settings(1)))));
        Assert.Throws<ArgumentOutOfRangeException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a], [Scheme("x")], s_spScheme, "small", Settings(0)))));
    }

    // Issue 21: one budget for the whole test, given to every scheme's schedulers and recorded; the throttling counters
    // read around each timed run alone (not the warm-ups) and each phase, one window per run or phase.
    [Fact]
    public void Budget_ReachesEverySchemeAndTheRecord_AndThrottlingIsReadAroundEachTimedRunAndPhase()
    {
        var clock = new VirtualTime();
        var contexts = new List<SchemeContext>();
        SchemeDescriptor Recording(string name, TaskScheduler? scheduler) =>
            SchemeFakes.Custom(name, c =>
            {
                contexts.Add(c);
                return new MarkerArrangement(c.Programs.Count, scheduler);
            });
        var counter = new DivCon.Tests.Budget.CountingThrottling();
        FakeProgram[] programs = [new(clock, "a", alone: 1, together: 2, sequential: 1.8), new(clock, "b", alone: 2, together: 3, sequential: 2.0)];
        var plan = new CyclicPlan("cyclic", programs, [Recording("one", null), Recording("two", null)], Recording("sp", s_alone), "small",
            Settings(repeat: 2) with { Budget = DivCon.Tests.Budget.BudgetFakes.OneCpuQuota });

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock) { ReadThrottling = _ => counter.Read() }.RunAsync(plan));

        Assert.All(contexts, c => Assert.Same(DivCon.Tests.Budget.BudgetFakes.OneCpuQuota, c.Budget));
        Assert.Equal(2 * 2 + 2 * 2, contexts.Count); // C^SP per program and the two schemes, in each repetition
        Assert.Same(DivCon.Tests.Budget.BudgetFakes.OneCpuQuota, result.Machine.Budget);
        CyclicThrottling t = result.Throttling!;
        Assert.Equal(["a/1", "b/1", "a/2", "b/2"], t.Alone.Select(x => $"{x.Program}/{x.Repetition}"));
        Assert.All(t.Alone, x => Assert.Equal("csp", x.Measure));
        Assert.All(t.Alone, x => Assert.Equal(Enumerable.Repeat(new ThrottlingSample(10, 1, 0.001), 3), x.Runs)); // 3 timed runs, warm-up not read
        Assert.Equal(4, t.Phases.Count);
        Assert.All(t.Phases, p => Assert.Equal(new ThrottlingSample(10, 1, 0.001), p.Phase));
        Assert.Equal(["one", "two"], t.Phases.Select(p => p.Scheme).Distinct().Order());
        Assert.Equal(2 * (4 * 3 + 4), counter.Reads);
        Assert.True(t.WasThrottled);
    }

    [Fact]
    public void Throttling_IsNotMeasured_WhereThereIsNoCgroup()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1)];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings(repeat: 1));

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock) { ReadThrottling = _ => null }.RunAsync(plan));

        Assert.Null(result.Throttling);
        Assert.NotNull(result.Machine.Budget); // detected once when the settings hold none
    }

    private sealed class FakeProgram(VirtualTime clock, string name, double alone, double together, double sequential) : IWorkloadProgram
    {
        private int _multiprogramRuns;

        public void Initialize()
        {
        }


        public string Name => name;

        public int FailOnMultiprogramRun { get; init; } = int.MaxValue;

        public bool WrongResult { get; init; }

        public int Verified { get; private set; }

        public async Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
        {
            bool isAlone = scheduler == s_alone;
            if (!isAlone && ++_multiprogramRuns == FailOnMultiprogramRun)
            {
                await Task.Delay(TimeSpan.FromSeconds(together / 2), clock, cancellationToken);
                throw new InvalidOperationException("boom");
            }

            await Task.Delay(TimeSpan.FromSeconds(isAlone ? alone : together), clock, cancellationToken);
        }

        public void RunSequential() => clock.Advance(TimeSpan.FromSeconds(sequential));

        public void Verify()
        {
            if (WrongResult)
            {
                throw new InvalidOperationException("result differs from the baseline");
            }

            Verified++;
        }
    }

    private sealed class MarkerArrangement(int programs, TaskScheduler? scheduler) : ISchedulerArrangement
    {
        private readonly TaskScheduler[] _schedulers = Enumerable.Range(0, programs)
            .Select(_ => scheduler ?? new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler).ToArray();

        public TaskScheduler SchedulerFor(int program) => _schedulers[program];

        public IReadOnlyList<SchedulerStats> Snapshot() => _schedulers.Select(s => new SchedulerStats("marker", s.Id, null, null)).ToArray();

        public void Dispose()
        {
        }
    }

    private sealed class MarkerPool : IMultiprogramPool
    {
        private readonly List<TaskScheduler> _schedulers = [];

        public TaskScheduler AddProgram(string name, double scalability)
        {
            Assert.True(scalability > 0);
            var s = new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler;
            _schedulers.Add(s);
            return s;
        }

        public SchedulerStats StatsFor(int program) => new("pool", _schedulers[program].Id, 1, true);

        public void Dispose()
        {
        }
    }
}
