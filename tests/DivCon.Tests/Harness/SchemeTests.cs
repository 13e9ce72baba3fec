using DivCon.Tests.Infrastructure;
using DivCon.Harness.Schemes;
using DivCon.Scheduling;

namespace DivCon.Tests.Harness;

public sealed class SchemeTests
{
    private static SchemeContext Context(int programs, params int[] processors) =>
        new(Enumerable.Range(0, programs).Select(i => ($"p{i}", (double?)(1.0 + i))).ToArray(), processors);

    [Fact]
    public void Registry_ListsEverySchemeOfTheIssue_AllRunnable()
    {
        SchemeRegistry registry = BuiltInSchemes.CreateRegistry();

        Assert.Equal(
            ["oversubscribed-free", "oversubscribed-pinned", "shared", "tpl-default", "static-partitioned", "dynamic-partitioned",
             "equal-shares", "hill-climbing", "idle-lending", "demand-partitioned", "work-conserving"],
            registry.All.Select(s => s.Name));
        Assert.Equal(SchemeCatalog.All.Select(s => s.Name), registry.All.Select(s => s.Name));
        Assert.Equal(["tpl-default"], SchemeCatalog.All.Where(s => !s.Simulated).Select(s => s.Name));
        Assert.Equal(
            ["static-partitioned", "dynamic-partitioned", "equal-shares", "hill-climbing", "idle-lending", "demand-partitioned", "work-conserving"],
            registry.All.Where(s => s.RequiresScalability).Select(s => s.Name));
    }

    [Fact]
    public void PartitionedPool_ProgramsGetTheirScalabilityShares_FromTheRealPolicy()
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();
        if (processors.Length < 2)
        {
            return; // one core cannot be divided
        }

        using var pool = new MultiProgramPool(processors, SchemeCatalog.Find(SchemeCatalog.StaticPartitioned)!, Timeout.InfiniteTimeSpan);
        TaskScheduler a = pool.AddProgram("a", 1.0);
        TaskScheduler b = pool.AddProgram("b", 1.0);
        TaskScheduler c = pool.AddProgram("c", 5.0);

        // 2 cores, scalabilities 1, 1, 5: shares 0.29, 0.29, 1.43 -> c 1, and the remainder to a (ties: lower index); b none.
        SchedulerStats[] stats = Enumerable.Range(0, 3).Select(pool.StatsFor).ToArray();
        Assert.Equal([1, 0, 1], stats.Select(s => s.Workers));
        Assert.Equal(3, stats.Select(s => s.SchedulerId).Distinct().Count());
        Assert.Equal([a.Id, b.Id, c.Id], stats.Select(s => s.SchedulerId));
        Assert.All(stats, s => Assert.Equal(pool.Id, s.PoolId));
        Assert.All(stats, s => Assert.Equal(3, s.Repartitions)); // one per arrival, none periodic
        Assert.Empty(stats[1].Processors!);
    }

    [Fact]
    public void Registry_FindsByName_InReportOrder_AndRejectsDuplicates()
    {
        SchemeRegistry registry = BuiltInSchemes.CreateRegistry();

        Assert.Equal(2, registry.All.ToList().FindIndex(s => s.Name == "shared"));
        Assert.NotNull(registry.Find("SHARED"));
        Assert.Throws<ArgumentException>(() => new SchemeRegistry([SchemeFakes.Wire(SchemeCatalog.TplDefault), SchemeFakes.Wire(SchemeCatalog.TplDefault)]));
    }

    [Fact]
    public void TplDefault_EveryProgramOnTheThreadPool()
    {
        using SchedulerArrangement a = SchemeFakes.Wire(SchemeCatalog.TplDefault).Create(Context(3, 0, 1));

        Assert.All(Enumerable.Range(0, 3), i => Assert.Same(TaskScheduler.Default, a.SchedulerFor(i)));
        IReadOnlyList<SchedulerStats> stats = a.Snapshot();
        Assert.Equal(3, stats.Count);
        Assert.All(stats, s => Assert.Equal(TaskScheduler.Default.Id, s.SchedulerId));
        Assert.All(stats, s => Assert.False(s.Pinned));
    }

    [Fact]
    public void OversubscribedFree_OneFreeSchedulerPerProgram_EachWithAWorkerPerCore()
    {
        var factory = new RecordingFactory();
        SchemeDescriptor scheme = SchemeFakes.Wire(SchemeCatalog.OversubscribedFree, factory.Create);

        using (SchedulerArrangement a = scheme.Create(Context(3, 4, 5)))
        {
            Assert.Equal(3, factory.Requests.Count);
            Assert.All(factory.Requests, r => Assert.Equal(2, r.Workers));
            Assert.All(factory.Requests, r => Assert.Null(r.PinTo));
            Assert.Equal(["p0", "p1", "p2"], factory.Requests.Select(r => r.Label));
            Assert.Equal(3, Enumerable.Range(0, 3).Select(a.SchedulerFor).Distinct().Count());
            Assert.Equal(3, a.Snapshot().Select(s => s.SchedulerId).Distinct().Count());
        }

        Assert.Equal(3, factory.Disposed);
    }

    [Fact]
    public void OversubscribedPinned_EachSchedulerPinnedToEveryProcessor()
    {
        var factory = new RecordingFactory();

        using (SchedulerArrangement a = SchemeFakes.Wire(SchemeCatalog.OversubscribedPinned, factory.Create).Create(Context(2, 4, 5)))
        {
            Assert.Equal(2, factory.Requests.Count);
            Assert.All(factory.Requests, r => Assert.Equal([4, 5], r.PinTo!));
            Assert.NotSame(a.SchedulerFor(0), a.SchedulerFor(1));
        }

        Assert.Equal(2, factory.Disposed);
    }

    [Fact]
    public void Shared_OnePinnedSchedulerForAllPrograms()
    {
        var factory = new RecordingFactory();

        using (SchedulerArrangement a = SchemeFakes.Wire(SchemeCatalog.Shared, factory.Create).Create(Context(3, 0, 1)))
        {
            SchedulerRequest r = Assert.Single(factory.Requests);
            Assert.Equal(2, r.Workers);
            Assert.Equal([0, 1], r.PinTo!);
            Assert.Single(Enumerable.Range(0, 3).Select(a.SchedulerFor).Distinct());
        }

        Assert.Equal(1, factory.Disposed);
    }

    [Fact]
    public void Separate_FactoryFailure_DisposesTheSchedulersAlreadyMade()
    {
        var factory = new RecordingFactory { FailOnCall = 3 };

        Assert.Throws<InvalidOperationException>(() => SchemeFakes.Wire(SchemeCatalog.OversubscribedFree, factory.Create).Create(Context(3, 0, 1)));
        Assert.Equal(2, factory.Disposed);
    }

    [Fact]
    public void Partitioned_RegistersEveryProgramWithItsScalability_AndNeedsScalabilities()
    {
        var pool = new RecordingPool();
        SchemeDescriptor scheme = SchemeFakes.Wire(SchemeCatalog.DynamicPartitioned, pool: _ => pool);

        Assert.True(scheme.RequiresScalability);
        using (SchedulerArrangement a = scheme.Create(Context(3, 0, 1)))
        {
            Assert.Equal<(string, double?)>([("p0", 1.0), ("p1", 2.0), ("p2", 3.0)], pool.Added);
            Assert.Equal(3, Enumerable.Range(0, 3).Select(a.SchedulerFor).Distinct().Count());
        }

        Assert.True(pool.IsDisposed);
        var noScalability = new SchemeContext([("x", null)], [0]);
        Assert.Throws<ArgumentException>(() => SchemeFakes.Wire(SchemeCatalog.StaticPartitioned, pool: _ => new RecordingPool()).Create(noScalability));
    }

    [Fact]
    public void Partitioned_WithOnlineScalability_RegistersEveryProgramWithoutOne()
    {
        var pool = new RecordingPool();
        SchemeContext online = Context(3, 0, 1) with { OnlineScalability = true };
        using (SchemeFakes.Wire(SchemeCatalog.DynamicPartitioned, pool: _ => pool).Create(online))
        {
            Assert.Equal<(string, double?)>([("p0", null), ("p1", null), ("p2", null)], pool.Added);
        }

        var noScalability = new SchemeContext([("x", null)], [0], OnlineScalability: true);
        using (SchemeFakes.Wire(SchemeCatalog.StaticPartitioned, pool: _ => new RecordingPool()).Create(noScalability))
        {
        }
    }

    /// <summary>A scheduler factory that records requests; its schedulers are real (the BCL's exclusive scheduler over the pool).</summary>
    private sealed class RecordingFactory
    {
        public List<SchedulerRequest> Requests { get; } = [];

        public int Disposed { get; private set; }

        public int FailOnCall { get; init; } = int.MaxValue;

        public SchedulerArrangement Create(SchedulerRequest request)
        {
            if (Requests.Count + 1 == FailOnCall)
            {
                throw new InvalidOperationException("cannot pin");
            }

            Requests.Add(request);
            var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, request.Workers);
            TaskScheduler scheduler = pair.ConcurrentScheduler;
            return new SchedulerArrangement([scheduler], () => [new SchedulerStats("test", scheduler.Id, request.Workers, request.PinTo is not null, request.PinTo)],
                () => { pair.Complete(); Disposed++; });
        }
    }

    private sealed class RecordingPool : IMultiprogramPool
    {
        private readonly List<TaskScheduler> _schedulers = [];

        public List<(string, double?)> Added { get; } = [];

        public bool IsDisposed { get; private set; }

        public TaskScheduler AddProgram(string name, double? scalability)
        {
            Added.Add((name, scalability));
            var s = new ConcurrentExclusiveSchedulerPair().ConcurrentScheduler;
            _schedulers.Add(s);
            return s;
        }

        public SchedulerStats StatsFor(int program) => new("pool", _schedulers[program].Id, 1, true);

        public void Dispose() => IsDisposed = true;
    }
}
