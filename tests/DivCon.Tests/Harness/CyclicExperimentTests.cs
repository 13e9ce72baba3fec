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
            : SchemeFakes.Custom(name, c => MarkerArrangement(c.Programs.Count, null));

    private static readonly SchemeDescriptor s_spScheme =
        SchemeFakes.Custom("sp", c => MarkerArrangement(c.Programs.Count, s_alone));

    private static CyclicSettings Settings(TimeSpan? duration = null) =>
        new(duration ?? TimeSpan.FromSeconds(29), SpRuns: 3, WarmupRuns: 1, Processors: [0, 1], Seed: 7,
            StopGrace: TimeSpan.FromSeconds(10), RunTimeout: TimeSpan.FromMinutes(5));

    [Fact]
    public void TwoInvocations_MeasureAloneThenEachScheme_AndComputeTheImpliedMetrics()
    {
        var clock = new VirtualTime();
        var lines = new List<string>();
        FakeProgram[] programs = [new(clock, "a", alone: 1, together: 2, sequential: 1.8), new(clock, "b", alone: 2, together: 3, sequential: 2.0)];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one"), Scheme("two", requiresScalability: true)], s_spScheme, "small", Settings());

        CyclicResult result = InProcessLauncher.Run(clock, plan, 2, lines.Add);

        // C^SP: steady at once (no spread), so 1 warm-up run (the minimum) and the 3-run window, in each invocation.
        Assert.Equal(2, result.Invocations.Count);
        Assert.All(result.Invocations, inv =>
        {
            Assert.Equal([1.0], inv.Programs[0].WarmupSeconds);
            Assert.Equal([1.0, 1.0, 1.0], inv.Programs[0].SpSeconds);
            Assert.Equal([2.0, 2.0, 2.0], inv.Programs[1].SpSeconds);
            Assert.True(inv.Programs[0].SteadyState);
            // Scalability = mean T_seq / C^SP, measured because scheme "two" needs it: one warm-up, then 3 runs.
            Assert.Equal([1.8], inv.Programs[0].SequentialWarmupSeconds);
            Assert.Equal([1.8, 1.8, 1.8], inv.Programs[0].SequentialSeconds);
            Assert.Equal(1.8, inv.Programs[0].Scalability!.Value, 9);
            Assert.Equal(["one", "two"], inv.SchemeOrder.Order());
        });
        Assert.Equal(1.8, result.Baselines[0].Scalability!.Value, 9);
        Assert.Equal(1.0, result.Baselines[1].Scalability!.Value, 9);
        Assert.Equal(2, result.Baselines[0].Csp.Count); // invocations

        foreach (SchemeResult s in result.Schemes)
        {
            Assert.Equal(2.0, s.Programs[0].Ntt!.Mean, 9);
            Assert.Equal(1.5, s.Programs[1].Ntt!.Mean, 9);
            Assert.Equal(RatioBasis.Invocations, s.Programs[0].Ntt!.Basis);
            Assert.Equal(2 * 14, s.Programs[0].Runs); // ⌊29 s / 2 s⌋ runs in each of two invocations
            Assert.Equal(2 * 9, s.Programs[1].Runs);  // ⌊29 s / 3 s⌋
            Assert.Equal(2, s.Programs[0].Discarded);
            Assert.Equal(1.75, s.Antt!.Mean, 9);
            Assert.Equal(2.0, s.Mntt!.Mean, 9);
            Assert.Equal(0.5 + (1 / 1.5), s.Stp!.Mean, 9);
            Assert.Equal(2, s.Antt.Count);
        }

        Assert.Equal(["one", "two"], result.Schemes.Select(s => s.Scheme));
        // Identical values under both schemes in both invocations: the paired test sees no difference.
        SchemeComparison antt = Assert.Single(result.Comparisons, c => c.Metric == "antt");
        Assert.Equal(("one", "two"), (antt.SchemeA, antt.SchemeB));
        Assert.Equal(1.0, antt.Test.Ratio, 12);
        Assert.False(antt.Resolved);
        Assert.Contains(lines, l => l.Contains("inv 1/2 sp a", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("inv 2/2 sp a", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("runs: a ", StringComparison.Ordinal));
        Assert.All(programs, p => Assert.True(p.Verified > 0));
        Assert.Equal("cyclic", result.Configuration.Kind);
        Assert.Equal(2, result.Configuration.Repeat);
        Assert.Equal(29, result.Configuration.DurationSeconds);
    }

    [Fact]
    public void WarmUp_RunsUntilTheWindowIsSteady_OrTheCap()
    {
        // a's first runs alone are slow (JIT, caches): 3, 2, 1.5, then 1, 1, 1, …: the window of 3 is steady once the
        // slow runs have left it. b alternates 1 and 2 for ever (CV ≈ 35 %): it stops at the cap, marked not steady.
        var clock = new VirtualTime();
        var a = new FakeProgram(clock, "a", alone: 1, together: 2, sequential: 1) { AloneRuns = [3, 2, 1.5] };
        var b = new FakeProgram(clock, "b", alone: 1, together: 2, sequential: 1) { AloneAlternates = true };
        var plan = new CyclicPlan("cyclic", [a, b], [Scheme("one")], s_spScheme, "small", Settings() with { MaxWarmupRuns = 4, SteadyCv = 0.02 });

        CyclicInvocation inv = clock.Run(() => new CyclicExperiment(clock).RunInvocationAsync(plan, 1, 1));

        Assert.Equal([3.0, 2.0, 1.5], inv.Programs[0].WarmupSeconds);
        Assert.Equal([1.0, 1.0, 1.0], inv.Programs[0].SpSeconds);
        Assert.True(inv.Programs[0].SteadyState);
        Assert.Equal(0, inv.Programs[0].SpCv);
        // b: 1 warm-up + 3-run window + 4 more, then the last window counts anyway.
        Assert.Equal(5, inv.Programs[1].WarmupSeconds.Count);
        Assert.Equal(3, inv.Programs[1].SpSeconds.Count);
        Assert.False(inv.Programs[1].SteadyState);
        Assert.True(inv.Programs[1].SpCv > 0.3);
    }

    [Fact]
    public void SchemeOrder_IsShuffledPerInvocation_FromTheSeed_AndRecorded()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 1, 1)];
        var schemes = Enumerable.Range(0, 5).Select(i => Scheme($"s{i}")).ToArray();
        var plan = new CyclicPlan("cyclic", programs, schemes, s_spScheme, "small", Settings(TimeSpan.FromSeconds(2)));

        CyclicResult result = InProcessLauncher.Run(clock, plan, 4);

        string[] orders = result.Invocations.Select(inv => string.Join(",", inv.SchemeOrder)).ToArray();
        Assert.True(orders.Distinct().Count() > 1, string.Join(" | ", orders));
        Assert.All(result.Invocations, inv => Assert.Equal(schemes.Select(s => s.Name).Order(), inv.SchemeOrder.Order()));
        // The order is a function of the seed and the invocation's number alone: a rerun (another process) gets the same.
        for (int k = 1; k <= 4; k++)
        {
            Assert.Equal(result.Invocations[k - 1].SchemeOrder, CyclicExperiment.Order(schemes, plan.Settings, k).Select(s => s.Name));
        }

        // Reports keep the plan's order whatever the run order was.
        Assert.Equal(schemes.Select(s => s.Name), result.Schemes.Select(s => s.Scheme));
    }

    [Fact]
    public void ProgramFailing_AbandonsTheTest_NamingProgramSchemeAndRepetition()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1), new(clock, "b", 1, 2, 1) { FailOnMultiprogramRun = 3 }];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings());

        var e = Assert.Throws<ProgramRunException>(() => clock.Run(() => new CyclicExperiment(clock).RunAsync(plan)));

        Assert.Equal("b", e.Program);
        Assert.Contains("scheme 'one'", e.Message, StringComparison.Ordinal);
        Assert.Contains("invocation 1", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void WrongResult_IsAFailureToo()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1) { WrongResult = true }];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings());

        var e = Assert.Throws<ProgramRunException>(() => clock.Run(() => new CyclicExperiment(clock).RunAsync(plan)));

        Assert.Contains("check of its result", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void SchemeThatCannotBuildItsSchedulers_IsReportedByName()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1)];
        var broken = SchemeFakes.Custom("broken", _ => throw new PlatformNotSupportedException("pinning is not supported here"));
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one"), broken], s_spScheme, "small", Settings());

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

        Assert.Throws<ArgumentException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a, a], [Scheme("x")], s_spScheme, "small", Settings()))));
        Assert.Throws<ArgumentException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a], [], s_spScheme, "small", Settings()))));
        Assert.Throws<ArgumentOutOfRangeException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a], [Scheme("x")], s_spScheme, "small", Settings() with { SpRuns = 0 }))));
        Assert.Throws<ArgumentOutOfRangeException>(() => clock.Run(() => experiment.RunAsync(new CyclicPlan("cyclic", [a], [Scheme("x")], s_spScheme, "small", Settings() with { SteadyCv = 0 }))));
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
                return MarkerArrangement(c.Programs.Count, scheduler);
            });
        var counter = new DivCon.Tests.Budget.CountingThrottling();
        FakeProgram[] programs = [new(clock, "a", alone: 1, together: 2, sequential: 1.8), new(clock, "b", alone: 2, together: 3, sequential: 2.0)];
        var plan = new CyclicPlan("cyclic", programs, [Recording("one", null), Recording("two", null)], Recording("sp", s_alone), "small",
            Settings() with { Budget = DivCon.Tests.Budget.BudgetFakes.OneCpuQuota });
        var experiment = new CyclicExperiment(clock) { ReadThrottling = _ => counter.Read() };

        // Two invocations (in one process here, as the CLI's children would each run one), then the result of both.
        CyclicInvocation[] invocations = [clock.Run(() => experiment.RunInvocationAsync(plan, 1, 2)), clock.Run(() => experiment.RunInvocationAsync(plan, 2, 2))];
        CyclicResult result = CyclicResults.Build(CyclicPlanRecord.From(plan, 2), invocations, CyclicExperiment.Describe(plan), new AnalysisOptions(),
            CyclicFixtures.Machine, CyclicFixtures.Started, 1);

        Assert.All(contexts, c => Assert.Same(DivCon.Tests.Budget.BudgetFakes.OneCpuQuota, c.Budget));
        Assert.Equal(2 * 2 + 2 * 2, contexts.Count); // C^SP per program and the two schemes, in each invocation
        CyclicThrottling t = result.Throttling!;
        Assert.Equal(["a/1", "b/1", "a/2", "b/2"], t.Alone.Select(x => $"{x.Program}/{x.Repetition}"));
        Assert.All(t.Alone, x => Assert.Equal("csp", x.Measure));
        Assert.All(t.Alone, x => Assert.Equal(Enumerable.Repeat(new ThrottlingSample(10, 1, 0.001), 3), x.Runs)); // the 3 runs of the window
        Assert.Equal(4, t.Phases.Count);
        Assert.All(t.Phases, p => Assert.Equal(new ThrottlingSample(10, 1, 0.001), p.Phase));
        Assert.Equal(["one", "two"], t.Phases.Select(p => p.Scheme).Distinct().Order());
        Assert.Equal([1, 1, 2, 2], t.Phases.Select(p => p.Repetition)); // the invocation's number
        // Every run alone is read (1 warm-up + the 3-run window, steady at once), twice each, and every phase twice.
        Assert.Equal(2 * ((2 * 4 * 2) + (2 * 2)), counter.Reads);
        Assert.True(t.WasThrottled);
        Assert.All(invocations, i => Assert.NotNull(i.Throttling));
    }

    [Fact]
    public void Throttling_IsNotMeasured_WhereThereIsNoCgroup()
    {
        var clock = new VirtualTime();
        FakeProgram[] programs = [new(clock, "a", 1, 2, 1)];
        var plan = new CyclicPlan("cyclic", programs, [Scheme("one")], s_spScheme, "small", Settings());

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock) { ReadThrottling = _ => null }.RunAsync(plan));

        Assert.Null(result.Throttling);
        Assert.NotNull(result.Machine.Budget); // detected once when the settings hold none
    }

    private sealed class FakeProgram(VirtualTime clock, string name, double alone, double together, double sequential) : IWorkloadProgram
    {
        private int _multiprogramRuns;
        private int _aloneRuns;

        public void Initialize()
        {
        }


        public string Name => name;

        public int FailOnMultiprogramRun { get; init; } = int.MaxValue;

        public bool WrongResult { get; init; }

        /// <summary>The first runs alone take these times; then <c>alone</c>.</summary>
        public double[] AloneRuns { get; init; } = [];

        /// <summary>Runs alone alternate between <c>alone</c> and twice that.</summary>
        public bool AloneAlternates { get; init; }

        public int Verified { get; private set; }

        public async Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
        {
            bool isAlone = scheduler == s_alone;
            if (!isAlone && ++_multiprogramRuns == FailOnMultiprogramRun)
            {
                await Task.Delay(TimeSpan.FromSeconds(together / 2), clock, cancellationToken);
                throw new InvalidOperationException("boom");
            }

            double seconds = together;
            if (isAlone)
            {
                int k = _aloneRuns++;
                seconds = k < AloneRuns.Length ? AloneRuns[k] : AloneAlternates && k % 2 == 1 ? 2 * alone : alone;
            }

            await Task.Delay(TimeSpan.FromSeconds(seconds), clock, cancellationToken);
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

    private static SchedulerArrangement MarkerArrangement(int programs, TaskScheduler? scheduler)
    {
        TaskScheduler[] schedulers = Enumerable.Range(0, programs).Select(_ => scheduler ?? new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler).ToArray();
        return new SchedulerArrangement(schedulers, () => schedulers.Select(s => new SchedulerStats("marker", s.Id, null, null)).ToArray(), () => { });
    }

    private sealed class MarkerPool : IMultiprogramPool
    {
        private readonly List<TaskScheduler> _schedulers = [];

        public TaskScheduler AddProgram(string name, double? scalability)
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
