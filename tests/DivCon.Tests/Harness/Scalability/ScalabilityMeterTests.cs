using System.Text.Json;
using DivCon.Harness.Scalability;
using DivCon.Samples;

namespace DivCon.Tests.Harness.Scalability;

public sealed class ScalabilityMeterTests : IDisposable
{
    private static readonly MachineIdentity s_machine = new(4, "0-3", "TestOS 1.0", ".NET Test");
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "divcon-scal-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_folder))
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    private string CachePath => Path.Combine(_folder, "sub", "scalability.json");

    private static ScalabilityMeter Meter(FakeClock clock, ScalabilityCache? cache = null, MachineIdentity? machine = null, List<FakeScheduler>? made = null) =>
        new(c =>
        {
            var s = new FakeScheduler(c);
            made?.Add(s);
            return s;
        }, clock, cache, machine ?? s_machine);

    [Fact]
    public async Task Table_IsRatioOfMeans_WarmupsExcluded()
    {
        var clock = new FakeClock();
        // T_s = 8 s; T(c) = 8 (0.25 + 0.75 / c): 8, 5, 3.5 s. Every warm-up run costs 100 s, so including one would show.
        var program = new FakeProgram(clock, sequentialSeconds: 8, parallelSeconds: c => 8 * (0.25 + (0.75 / c)), warmupSeconds: 100);

        ScalabilityMeasurement m = await Meter(clock).MeasureAsync(program, [1, 2, 4], runs: 3, warmupRuns: 1);

        Assert.Equal(8, m.SequentialSeconds, 9);
        Assert.Equal([1, 2, 4], m.Points.Select(p => p.Cores));
        Assert.Equal([8, 5, 3.5], m.Points.Select(p => Math.Round(p.ParallelSeconds, 9)));
        Assert.Equal([1, 1.6, 2.285714], m.Points.Select(p => Math.Round(p.Speedup, 6)));
        Assert.Equal(2.285714, m.Scalability, 6);
        Assert.Equal(1.6, m.ToTable().SpeedupAt(2), 9);
        var load = m.ToProgramLoad(7, availableTasks: 3);
        Assert.Equal((7, 3), (load.ProgramId, load.AvailableTasks));
        Assert.Equal(m.Scalability, load.Scalability);
        Assert.Equal([1, 2, 4], load.ScalabilityTable!.Cores);
        Assert.Equal(4, program.SequentialRuns);   // 1 warm-up + 3 timed
        Assert.Equal(12, program.ParallelRuns);    // (1 + 3) per point
        Assert.Equal(12, program.Verifications);
    }

    [Fact]
    public async Task MeanOfVaryingRuns()
    {
        var clock = new FakeClock();
        // Timed sequential runs take 1, 2, 3 s (mean 2); parallel runs on 2 cores 0.5, 1, 1.5 (mean 1) → speedup 2.
        var program = new FakeProgram(clock, sequentialSeconds: 1, parallelSeconds: _ => 0.5, growEachRun: true);

        ScalabilityMeasurement m = await Meter(clock).MeasureAsync(program, [2], runs: 3, warmupRuns: 0);

        Assert.Equal(2, m.SequentialSeconds, 9);
        Assert.Equal(1, m.Points[0].ParallelSeconds, 9);
        Assert.Equal(2, m.Points[0].Speedup, 9);
    }

    [Fact]
    public async Task DefaultCoreCount_IsTheMachines()
    {
        var clock = new FakeClock();
        var program = new FakeProgram(clock, 8, c => 8.0 / c);

        ScalabilityMeasurement m = await Meter(clock).MeasureAsync(program, runs: 1, warmupRuns: 0);

        Assert.Equal([4], m.Points.Select(p => p.Cores));
        Assert.Equal(4, m.Scalability, 9);
    }

    [Fact]
    public async Task Cache_IsReusedOnTheNextCall_WithoutRunningTheProgram()
    {
        var clock = new FakeClock();
        var first = new FakeProgram(clock, 8, c => 8.0 / c);
        ScalabilityMeasurement measured = await Meter(clock, new ScalabilityCache(CachePath)).MeasureAsync(first, [1, 2, 4], runs: 2);

        var second = new FakeProgram(clock, 8, c => 8.0 / c);
        ScalabilityMeasurement reused = await Meter(clock, new ScalabilityCache(CachePath)).MeasureAsync(second, [1, 2, 4], runs: 2);

        Assert.Equal(0, second.SequentialRuns + second.ParallelRuns);
        Assert.Equal(measured.Points, reused.Points);
        Assert.Equal(measured.SequentialSeconds, reused.SequentialSeconds);

        using var doc = JsonDocument.Parse(File.ReadAllText(CachePath));
        JsonElement entry = doc.RootElement.GetProperty("entries")[0];
        Assert.Equal("fake", entry.GetProperty("program").GetString());
        Assert.Equal("Small", entry.GetProperty("size").GetString());
        Assert.Equal(4, entry.GetProperty("machine").GetProperty("processorCount").GetInt32());
        Assert.Equal("0-3", entry.GetProperty("machine").GetProperty("affinity").GetString());
        Assert.Equal(3, entry.GetProperty("points").GetArrayLength());
    }

    [Fact]
    public async Task Cache_IsKeyedByMachineAndSize()
    {
        var clock = new FakeClock();
        var cache = new ScalabilityCache(CachePath);
        await Meter(clock, cache).MeasureAsync(new FakeProgram(clock, 8, c => 8.0 / c), [2], runs: 1);

        var otherMachine = new FakeProgram(clock, 8, c => 8.0 / c);
        await Meter(clock, cache, s_machine with { Affinity = "0-1" }).MeasureAsync(otherMachine, [2], runs: 1);
        var otherSize = new FakeProgram(clock, 8, c => 8.0 / c, size: ProblemSize.Medium);
        await Meter(clock, cache).MeasureAsync(otherSize, [2], runs: 1);

        Assert.True(otherMachine.ParallelRuns > 0);
        Assert.True(otherSize.ParallelRuns > 0);
        Assert.Equal(3, cache.Entries().Count);
    }

    [Fact]
    public async Task Cache_OnlyMissingPointsAreMeasured_AndFewerRunsThanAskedMeansMeasureAgain()
    {
        var clock = new FakeClock();
        var cache = new ScalabilityCache(CachePath);
        await Meter(clock, cache).MeasureAsync(new FakeProgram(clock, 8, c => 8.0 / c), [4], runs: 2, warmupRuns: 0);

        var more = new FakeProgram(clock, 8, c => 8.0 / c);
        ScalabilityMeasurement m = await Meter(clock, cache).MeasureAsync(more, [1, 2, 4], runs: 2, warmupRuns: 0);

        Assert.Equal(0, more.SequentialRuns);      // the cached T_s is reused
        Assert.Equal(4, more.ParallelRuns);        // 2 runs at 1 core, 2 at 2 cores; 4 cores cached
        Assert.Equal([1, 2, 4], m.Points.Select(p => p.Cores));
        Assert.Equal([1, 2, 4], cache.Find("fake", "Small", s_machine)!.Points.Select(p => p.Cores));

        var stricter = new FakeProgram(clock, 8, c => 8.0 / c);
        await Meter(clock, cache).MeasureAsync(stricter, [4], runs: 5, warmupRuns: 0);
        Assert.Equal(5, stricter.SequentialRuns);
        Assert.Equal(5, cache.Find("fake", "Small", s_machine)!.Runs);
    }

    [Fact]
    public async Task Cache_DamagedFile_IsMeasuredAgainAndOverwritten()
    {
        Directory.CreateDirectory(Path.GetDirectoryName(CachePath)!);
        await File.WriteAllTextAsync(CachePath, "{ not json");
        var clock = new FakeClock();
        var program = new FakeProgram(clock, 8, c => 8.0 / c);

        await Meter(clock, new ScalabilityCache(CachePath)).MeasureAsync(program, [2], runs: 1);

        Assert.True(program.ParallelRuns > 0);
        Assert.Single(new ScalabilityCache(CachePath).Entries());
    }

    [Fact]
    public async Task SchedulersAreDisposed_AndOnePerPoint()
    {
        var clock = new FakeClock();
        var made = new List<FakeScheduler>();

        await Meter(clock, made: made).MeasureAsync(new FakeProgram(clock, 8, c => 8.0 / c), [1, 2], runs: 1);

        Assert.Equal([1, 2], made.Select(s => s.MaximumConcurrencyLevel));
        Assert.All(made, s => Assert.True(s.Disposed));
    }

    [Fact]
    public async Task WrongParallelResult_FailsTheMeasurement()
    {
        var clock = new FakeClock();
        var program = new FakeProgram(clock, 8, c => 8.0 / c) { VerifyFails = true };

        await Assert.ThrowsAsync<InvalidOperationException>(() => Meter(clock).MeasureAsync(program, [2], runs: 1));
    }

    [Fact]
    public async Task RunsWithNoMeasurableTime_Throw()
    {
        var clock = new FakeClock();
        var program = new FakeProgram(clock, 0, _ => 0);

        var e = await Assert.ThrowsAsync<InvalidOperationException>(() => Meter(clock).MeasureAsync(program, [2], runs: 1));
        Assert.Contains("no measurable time", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new int[0])]
    [InlineData(new[] { 0 })]
    [InlineData(new[] { 2, 2 })]
    public async Task BadCoreCounts_Throw(int[] counts)
    {
        var clock = new FakeClock();
        await Assert.ThrowsAsync<ArgumentException>(() => Meter(clock).MeasureAsync(new FakeProgram(clock, 1, _ => 1), counts));
    }

    [Theory]
    [InlineData(1, new[] { 1 })]
    [InlineData(2, new[] { 1, 2 })]
    [InlineData(6, new[] { 1, 2, 4, 6 })]
    [InlineData(8, new[] { 1, 2, 4, 8 })]
    public void PowersOfTwo(int cores, int[] expected) => Assert.Equal(expected, ScalabilityMeter.PowersOfTwoUpTo(cores));

    [Fact]
    public async Task RealClock_RealScheduler_GivesAPositiveSpeedup()
    {
        var program = new SpinProgram();
        var meter = new ScalabilityMeter(_ => TaskScheduler.Default, machine: MachineIdentity.Current());

        ScalabilityMeasurement m = await meter.MeasureAsync(program, [2], runs: 2, warmupRuns: 1);

        Assert.True(m.SequentialSeconds > 0);
        Assert.True(double.IsFinite(m.Scalability) && m.Scalability > 0);
        Assert.True(MachineIdentity.Current().ProcessorCount >= 1);
    }

    private sealed class FakeClock : IMeasurementClock
    {
        private long _ticks;

        public TimeSpan Now => TimeSpan.FromTicks(Interlocked.Read(ref _ticks));

        public void Advance(double seconds) => Interlocked.Add(ref _ticks, TimeSpan.FromSeconds(seconds).Ticks);
    }

    private sealed class FakeScheduler(int workers) : TaskScheduler, IDisposable
    {
        public bool Disposed { get; private set; }

        public override int MaximumConcurrencyLevel => workers;

        public void Dispose() => Disposed = true;

        protected override IEnumerable<Task>? GetScheduledTasks() => [];

        protected override void QueueTask(Task task) => ThreadPool.UnsafeQueueUserWorkItem(_ => TryExecuteTask(task), null);

        protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    }

    /// <summary>A program whose durations are formulas: each run advances the fake clock instead of working.</summary>
    private sealed class FakeProgram(
        FakeClock clock,
        double sequentialSeconds,
        Func<int, double> parallelSeconds,
        double? warmupSeconds = null,
        bool growEachRun = false,
        ProblemSize size = ProblemSize.Small) : ISampleProgram
    {
        private int _sequentialInPoint;
        private int _parallelInPoint;
        private int _lastCores;

        public string Name => "fake";

        public ProblemSize Size => size;

        public int SequentialRuns { get; private set; }

        public int ParallelRuns { get; private set; }

        public int Verifications { get; private set; }

        public bool VerifyFails { get; init; }

        public void RunSequential()
        {
            SequentialRuns++;
            clock.Advance(Duration(sequentialSeconds, _sequentialInPoint++));
        }

        public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
        {
            int cores = scheduler.MaximumConcurrencyLevel;
            if (cores != _lastCores)
            {
                _lastCores = cores;
                _parallelInPoint = 0;
            }

            ParallelRuns++;
            double seconds = Duration(parallelSeconds(cores), _parallelInPoint++);
            await Task.Factory.StartNew(() => clock.Advance(seconds), cancellationToken, TaskCreationOptions.None, scheduler);
        }

        public void Verify()
        {
            Verifications++;
            if (VerifyFails)
            {
                throw new InvalidOperationException("The parallel result differs from the baseline.");
            }
        }

        // Run k of a point: warm-ups (k below the warm-up count are run first) may cost warmupSeconds; with
        // growEachRun the k-th timed run costs (k + 1) times the base.
        private double Duration(double seconds, int k)
        {
            if (warmupSeconds is double w && k == 0)
            {
                return w;
            }

            return growEachRun ? seconds * (k + 1) : seconds;
        }
    }

    /// <summary>A tiny real program: sums a range sequentially or in two halves on the scheduler.</summary>
    private sealed class SpinProgram : ISampleProgram
    {
        private const int N = 200_000;
        private long _result;

        public string Name => "spin";

        public ProblemSize Size => ProblemSize.Small;

        public void RunSequential() => _result = Sum(0, N);

        public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
        {
            var left = Task.Factory.StartNew(() => Sum(0, N / 2), cancellationToken, TaskCreationOptions.None, scheduler);
            var right = Task.Factory.StartNew(() => Sum(N / 2, N), cancellationToken, TaskCreationOptions.None, scheduler);
            _result = await left + await right;
        }

        public void Verify()
        {
            if (_result != (long)N * (N - 1) / 2)
            {
                throw new InvalidOperationException("Wrong sum.");
            }
        }

        private static long Sum(int from, int to)
        {
            long s = 0;
            for (int i = from; i < to; i++)
            {
                s += i;
            }

            return s;
        }
    }
}
