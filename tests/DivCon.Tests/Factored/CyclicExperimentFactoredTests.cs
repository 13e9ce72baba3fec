using DivCon.Tests.Infrastructure;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Scheduling;
using DivCon.Tests.Harness;

namespace DivCon.Tests.Factored;

/// <summary>
/// The cyclic experiment wires the multiprogram decomposition end to end (issue 7): on virtual time, with synthetic
/// programs and a fake pool that accounts core-time at a known rate, the factored values in the result are the
/// formulas on the recorded numbers; a scheme without accounting (tpl-default) gets null and the reason.
/// </summary>
public sealed class CyclicExperimentFactoredTests
{
    private static readonly TaskScheduler s_alone = new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler;

    private static readonly SchemeDescriptor s_spScheme =
        SchemeFakes.Custom("sp", c => AloneArrangement(c.Programs.Count));

    // Program a holds 1.5 cores, 20 % of them idle; b holds 0.5 cores, 10 % idle (the fake pool's rates).
    private static readonly double[] s_cores = [1.5, 0.5];
    private static readonly double[] s_idleFraction = [0.2, 0.1];

    [Fact]
    public void PartitionedScheme_GetsTheFormulasOnTheRecordedNumbers_TplDefaultGetsAReason()
    {
        var clock = new VirtualTime();
        var lines = new List<string>();
        SyntheticProgram[] programs =
        [
            new(clock, "a", alone: 1, together: 2, sequential: 1.8, oneWorker: 2.5),
            new(clock, "b", alone: 2, together: 3, sequential: 2.0, oneWorker: 2.2),
        ];
        var pools = new List<RatePool>();
        SchemeDescriptor partitioned = SchemeFakes.Partitioned("fake-partitioned", _ =>
        {
            var pool = new RatePool(clock);
            pools.Add(pool);
            return pool;
        });
        var settings = new CyclicSettings(TimeSpan.FromSeconds(29), SpRuns: 3, WarmupRuns: 1, Processors: [0, 1], Seed: 7,
            StopGrace: TimeSpan.FromSeconds(10), RunTimeout: TimeSpan.FromMinutes(5));
        var plan = new CyclicPlan("cyclic", programs, [SchemeFakes.Wire(SchemeCatalog.TplDefault), partitioned], s_spScheme, "small", settings);

        CyclicResult result = InProcessLauncher.Run(clock, plan, 2, lines.Add);

        // Each invocation's window is the 29 s phase: the pool froze at the first stopped run, where the window ends.
        Assert.Equal(2, pools.Count);
        Assert.All(pools, p => Assert.Equal(29.0, p.FrozenAfterSeconds!.Value, 9));

        SchemeResult tpl = result.Schemes.Single(s => s.Scheme == SchemeCatalog.TplDefault);
        Assert.All(tpl.Programs, p =>
        {
            Assert.Null(p.Factored!.Point);
            Assert.Equal(MultiprogramFactored.NoAccountingReason, p.Factored.Reason);
        });

        SchemeResult part = result.Schemes.Single(s => s.Scheme == "fake-partitioned");
        for (int i = 0; i < programs.Length; i++)
        {
            SyntheticProgram prog = programs[i];
            ProgramResult p = part.Programs[i];
            MultiprogramFactored f = p.Factored!;
            Assert.Null(f.Reason);
            FactoredPoint point = f.Point!;
            ProgramCoreAccounting a = f.Accounting!;

            // The recorded numbers: two 29 s windows; core and idle seconds summed over them; isolated T_s and T_1.
            Assert.Equal(58.0, a.IntervalSeconds, 9);
            Assert.Equal(s_cores[i] * 58, a.CoreSecondsHeld, 9);
            Assert.Equal(s_idleFraction[i] * s_cores[i] * 58, a.IdleSeconds, 9);
            Assert.Equal(prog.Sequential, a.SequentialSeconds!.Value, 9);
            Assert.Equal(prog.OneWorker, a.OneWorkerSeconds!.Value, 9);
            Assert.Equal(prog.Together, p.Cmp!.Mean, 9);

            // The formulas (docs/DESIGN.md §8), written out by hand on those numbers.
            double pHeld = a.CoreSecondsHeld / a.IntervalSeconds;
            double tmp = p.Cmp.Mean;
            double ip = a.IdleSeconds / a.IntervalSeconds * tmp;
            double ts = prog.Sequential, t1 = prog.OneWorker;
            Assert.Equal(s_cores[i], point.P, 9);
            Assert.Equal(tmp, point.Tp, 9);
            Assert.Equal(ip, point.Ip, 9);
            Assert.Equal(pHeld * tmp - ip, point.Wp, 9);
            Assert.Equal(pHeld * tmp - ip - t1, point.Fp, 9);
            // Bootstrap over the two invocations: they measured the same numbers, so every interval is the point.
            Assert.Equal(2, point.Ci99!.Rounds);
            Assert.Equal(point.Fp, point.Ci99.Fp!.Value.Lower, 9);
            Assert.Equal(point.Fp, point.Ci99.Fp!.Value.Upper, 9);
            Assert.Equal(point.Speedups.Actual, point.Ci99.Actual!.Value.Lower, 9);
            Assert.Equal(pHeld * point.Tp, t1 + point.Ip + point.Fp, 9); // P·T_P = T_1 + I_P + F_P
            Assert.Equal(pHeld, point.Speedups.Linear, 9);
            Assert.Equal(pHeld * ts / t1, point.Speedups.Maximal, 9);
            Assert.Equal(pHeld * ts / (t1 + ip), point.Speedups.IdleSpecific, 9);
            Assert.Equal(pHeld * ts / (t1 + point.Fp), point.Speedups.InflationSpecific, 9);
            Assert.Equal(ts / tmp, point.Speedups.Actual, 9);
            Assert.Null(point.Speedups.Elision);

            // T_1 really ran on a 1-worker work-stealing scheduler, OneWorkerRuns times in each invocation.
            Assert.Equal(2 * settings.OneWorkerRuns, prog.OneWorkerRuns);
            Assert.All(result.Invocations, inv => Assert.Equal(settings.OneWorkerRuns, inv.Programs[i].OneWorkerSeconds.Count));
        }

        // Concrete check of one: a holds 1.5 cores, T_MP 2 s, I = 0.2·1.5·2 = 0.6 s, T_s 1.8, T_1 2.5.
        Assert.Equal(1.5 * 1.8 / (2.5 + 0.6), part.Programs[0].Factored!.Point!.Speedups.IdleSpecific, 9);
        Assert.Contains(lines, l => l.Contains("T_1 2.500 s", StringComparison.Ordinal));
    }

    [Fact]
    public void NoSchemeWithAccounting_MeasuresNoIsolatedTimes()
    {
        var clock = new VirtualTime();
        SyntheticProgram[] programs = [new(clock, "a", alone: 1, together: 2, sequential: 1.8, oneWorker: 2.5)];
        var settings = new CyclicSettings(TimeSpan.FromSeconds(10), SpRuns: 2, WarmupRuns: 0, Processors: [0], Seed: 1,
            StopGrace: TimeSpan.FromSeconds(10), RunTimeout: TimeSpan.FromMinutes(5));
        var plan = new CyclicPlan("cyclic", programs, [SchemeFakes.Wire(SchemeCatalog.TplDefault)], s_spScheme, "small", settings);

        CyclicResult result = clock.Run(() => new CyclicExperiment(clock).RunAsync(plan));

        Assert.Equal(0, programs[0].OneWorkerRuns);
        Assert.Equal(MultiprogramFactored.NoAccountingReason, result.Schemes[0].Programs[0].Factored!.Reason);
    }

    private sealed class SyntheticProgram(VirtualTime clock, string name, double alone, double together, double sequential, double oneWorker)
        : IWorkloadProgram
    {
        public string Name => name;
        public void Initialize()
        {
        }


        public double Together => together;

        public double Sequential => sequential;

        public double OneWorker => oneWorker;

        public int OneWorkerRuns { get; private set; }

        public async Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
        {
            double seconds = together;
            if (scheduler == s_alone)
            {
                seconds = alone;
            }
            else if (scheduler is WorkStealingTaskScheduler { WorkerCount: 1 })
            {
                seconds = oneWorker;
                OneWorkerRuns++;
            }

            await Task.Delay(TimeSpan.FromSeconds(seconds), clock, cancellationToken);
        }

        public void RunSequential() => clock.Advance(TimeSpan.FromSeconds(sequential));

        public void Verify()
        {
        }
    }

    private static SchedulerArrangement AloneArrangement(int programs) => new(
        Enumerable.Repeat(s_alone, programs).ToArray(), () => Enumerable.Range(0, programs).Select(_ => new SchedulerStats("alone", s_alone.Id, null, null)).ToArray(), () => { });

    /// <summary>
    /// Accounts core-time at a fixed rate per program from its registration, frozen at the first stopped run (as
    /// MultiProgramPool does); idle is a fixed fraction of it.
    /// </summary>
    private sealed class RatePool(VirtualTime clock) : IMultiprogramPool
    {
        private readonly List<TaskScheduler> _schedulers = [];
        private readonly double _created = clock.NowSeconds;

        public double? FrozenAfterSeconds { get; private set; }

        public TaskScheduler AddProgram(string name, double? scalability)
        {
            var s = new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler;
            _schedulers.Add(s);
            return s;
        }

        public SchedulerStats StatsFor(int program)
        {
            double elapsed = FrozenAfterSeconds ?? (clock.NowSeconds - _created);
            double core = s_cores[program] * elapsed;
            return new SchedulerStats("rate pool", _schedulers[program].Id, 1, true, IdleSeconds: s_idleFraction[program] * core, CoreSeconds: core);
        }

        public void OnRunStopping(int program) => FrozenAfterSeconds ??= clock.NowSeconds - _created;

        public void Dispose()
        {
        }
    }
}
