using DivCon.Harness.Reporting;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Scheduling;

namespace DivCon.Tests.Factored;

// Issue 10: the stealing option of the factored measurement reaches its schedulers and is recorded with the steal
// counts and seed 002's split of I_P.
public sealed class FactoredStealingTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static FactoredStealing PerWorker(string scope) => FactoredStealing.Parse(scope, FactoredStealing.PerWorkerGroups, 1, [])!;

    [Theory]
    [InlineData("all", "detected", StealingScope.All, "detected")]
    [InlineData(" Cache-Group-First ", "PER-WORKER", StealingScope.CacheGroupFirst, "per-worker")]
    [InlineData("cache-group-first", " 1 ; 0,2 ", StealingScope.CacheGroupFirst, "1;0,2")]
    public void Parse_AcceptsTheDocumentedValues(string scope, string groups, StealingScope expectedScope, string expectedGroups)
    {
        var problems = new List<string>();

        FactoredStealing? stealing = FactoredStealing.Parse(scope, groups, maxWorkers: 3, problems);

        Assert.Empty(problems);
        Assert.NotNull(stealing);
        Assert.Equal(expectedScope, stealing.Scope);
        Assert.Equal(expectedGroups, stealing.Groups);
    }

    [Theory]
    [InlineData("some", "detected", "--stealing 'some' is not allowed; use all or cache-group-first.")]
    [InlineData("all", "", "--stealing-groups needs a value")]
    [InlineData("all", "0;x", "'x' is not a worker index")]
    [InlineData("all", "0;-1", "'-1' is not a worker index")]
    [InlineData("all", "0;1;2", "worker 2 does not exist with at most 2 workers")]
    [InlineData("all", "0,1;1", "worker 1 is in more than one place")]
    [InlineData("all", "1", "worker(s) 0 in no group")]
    [InlineData("all", "0;;1", "'' is not a worker index")]
    public void Parse_RejectsBadValues_WithAMessageNamingWhatIsAllowed(string scope, string groups, string message)
    {
        var problems = new List<string>();

        FactoredStealing? stealing = FactoredStealing.Parse(scope, groups, maxWorkers: 2, problems);

        Assert.Null(stealing);
        string problem = Assert.Single(problems);
        Assert.Contains(message, problem, StringComparison.Ordinal);
    }

    [Fact]
    public void GroupsFor_KeepsTheWorkersBelowP_AndDropsEmptyGroups()
    {
        var problems = new List<string>();
        FactoredStealing explicitGroups = FactoredStealing.Parse("cache-group-first", "0,2;1,3", 4, problems)!;
        FactoredStealing perWorker = PerWorker("all");

        Assert.Equal([[0], [1]], explicitGroups.GroupsFor(2));
        Assert.Equal([[0, 2], [1]], explicitGroups.GroupsFor(3));
        Assert.Equal([[0]], explicitGroups.GroupsFor(1));
        Assert.Equal([[0], [1], [2]], perWorker.GroupsFor(3));
        Assert.Null(FactoredStealing.Default.GroupsFor(2));
    }

    [Fact]
    public void Options_CarryTheScopeAndGroups_AndDetectedGroupsUseTheTopologyInBothScopes()
    {
        var topology = new CpuTopology([0, 1], [new CacheGroup([0], 3, 1 << 20), new CacheGroup([1], 3, 1 << 20)], [new NumaNode(0, [0, 1])]);

        WorkStealingSchedulerOptions perWorker = PerWorker("cache-group-first")
            .Options(2, "t", () => throw new InvalidOperationException("per-worker groups need no topology"));
        WorkStealingSchedulerOptions detected = FactoredStealing.Default.Options(2, "t", () => topology);

        Assert.Equal(StealingScope.CacheGroupFirst, perWorker.StealingScope);
        Assert.Equal(2, perWorker.WorkerCount);
        Assert.Equal([[0], [1]], perWorker.StealingGroups!);
        Assert.Null(perWorker.StealingTopology);
        Assert.Equal(StealingScope.All, detected.StealingScope);
        Assert.Null(detected.StealingGroups);
        Assert.Same(topology, detected.StealingTopology);
    }

    // With one worker in each group every steal is remote; with both in one group every steal is local. The program
    // forces a steal: its root task waits (bounded) for a child queued on its own deque, which only the other worker
    // can take, by stealing.
    [Theory]
    [InlineData("cache-group-first", "per-worker", false)]
    [InlineData("all", "per-worker", false)]
    [InlineData("cache-group-first", "0,1", true)]
    public void SchedulerSource_StealsAsConfigured_AndSplitsIdleIntoOverheadAndWaiting(string scope, string groups, bool local)
    {
        var problems = new List<string>();
        FactoredStealing stealing = FactoredStealing.Parse(scope, groups, 2, problems)!;
        Assert.Empty(problems);
        using var source = new SchedulerMeasurementSource(TimeSpan.FromMinutes(1), stealing);
        var program = new ForcedStealProgram();

        ParallelRunSample run = source.MeasureParallel(program, 2, CancellationToken.None);

        Assert.True(program.ChildRanElsewhere, "the child ran on the root's own worker: no steal was forced");
        RunStealStatistics steals = Assert.IsType<RunStealStatistics>(run.Steals);
        Assert.True(steals.Steals >= 1, $"steals {steals.Steals}");
        Assert.Equal(local ? steals.Steals : 0, steals.LocalSteals);
        Assert.Equal(local ? 0 : steals.Steals, steals.RemoteSteals);
        Assert.Equal(source.LastStatistics!.Steals, steals.Steals);
        Assert.Equal(run.IdleSeconds, steals.SchedulingOverheadSeconds + steals.WaitingSeconds, 1e-12);
        Assert.True(steals.SchedulingOverheadSeconds >= 0 && steals.WaitingSeconds >= 0);
    }

    [Fact]
    public void RunSteals_ClampsTheOverheadToTheRunsIdleTime()
    {
        var statistics = new SchedulerStatistics(TimeSpan.FromSeconds(1),
        [
            new WorkerStatistics(0, null, 10, 3, TimeSpan.FromSeconds(0.25), TimeSpan.FromSeconds(0.5), TimeSpan.FromSeconds(0.5), LocalSteals: 1, RemoteSteals: 2),
        ]);

        RunStealStatistics within = SchedulerMeasurementSource.RunSteals(statistics, runIdleSeconds: 0.4);
        RunStealStatistics clamped = SchedulerMeasurementSource.RunSteals(statistics, runIdleSeconds: 0.1);

        Assert.Equal((3, 1, 2), (within.Steals, within.LocalSteals, within.RemoteSteals));
        Assert.Equal(0.25, within.SchedulingOverheadSeconds, 1e-12);
        Assert.Equal(0.15, within.WaitingSeconds, 1e-12);
        Assert.Equal(0.1, clamped.SchedulingOverheadSeconds, 1e-12);
        Assert.Equal(0, clamped.WaitingSeconds, 1e-12);
    }

    [Fact]
    public void Analyze_MeansTheStealStatisticsPerP_OnlyWhenEveryRunHasThem()
    {
        var samples = new FactoredSamples([1.0], [],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>>
            {
                [1] = [new(1.0, 0.0)],
                [2] = [new(0.6, 0.2, new RunStealStatistics(4, 1, 3, 0.05, 0.15)), new(0.6, 0.3, new RunStealStatistics(6, 3, 3, 0.1, 0.2))],
                [3] = [new(0.5, 0.2, new RunStealStatistics(4, 1, 3, 0.05, 0.15)), new(0.5, 0.2)],
            });

        FactoredProgramResult result = FactoredAnalysis.Analyze("p", samples);

        Assert.Null(result.Points[0].Steals);
        Assert.Equal(new RunStealStatistics(5, 2, 3, 0.075, 0.175), result.Points[1].Steals! with
        {
            SchedulingOverheadSeconds = Math.Round(result.Points[1].Steals!.SchedulingOverheadSeconds, 12),
            WaitingSeconds = Math.Round(result.Points[1].Steals!.WaitingSeconds, 12),
        });
        Assert.Null(result.Points[2].Steals);
    }

    [Fact]
    public void JsonTextAndCsv_RecordTheStealingAndTheStealsNextToTheInflation()
    {
        FactoredStealing stealing = PerWorker("cache-group-first") with { DetectedCacheGroups = 1 };
        var samples = new FactoredSamples([1.0], [],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>>
            {
                [1] = [new(1.0, 0.0, new RunStealStatistics(0, 0, 0, 0, 0))],
                [2] = [new(0.6, 0.25, new RunStealStatistics(7, 0, 7, 0.05, 0.2))],
            });
        var result = new FactoredResult("small", 1, new FactoredSettings([1, 2], 1, 0),
            [FactoredAnalysis.Analyze("transform-sliding", samples)], stealing.ToRecord([1, 2]),
            new Dictionary<string, string> { ["transform-sliding"] = "window sliding m = 256 elements" })
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = MachineInfo.Capture(),
        };

        using JsonDocument doc = JsonDocument.Parse(ResultJson.ToUtf8(result, HarnessJsonContext.Files.FactoredResult));
        string table = FactoredTextReport.Table(result);
        string csv = FactoredTextReport.Csv(result).ToString();

        JsonElement config = doc.RootElement.GetProperty("stealing");
        Assert.Equal("cache-group-first", config.GetProperty("scope").GetString());
        Assert.Equal("per-worker", config.GetProperty("groups").GetString());
        Assert.Equal(1, config.GetProperty("detectedCacheGroups").GetInt32());
        JsonElement two = config.GetProperty("workerGroups")[1];
        Assert.Equal(2, two.GetProperty("p").GetInt32());
        Assert.Equal("0;1", two.GetProperty("groups").GetString());
        Assert.Equal("window sliding m = 256 elements", doc.RootElement.GetProperty("programSettings").GetProperty("transform-sliding").GetString());
        JsonElement program = doc.RootElement.GetProperty("programs")[0];
        JsonElement point = program.GetProperty("points")[1];
        Assert.Equal(7, point.GetProperty("steals").GetProperty("remoteSteals").GetDouble());
        Assert.Equal(0.05, point.GetProperty("steals").GetProperty("schedulingOverheadSeconds").GetDouble());
        Assert.Equal(0.2, point.GetProperty("steals").GetProperty("waitingSeconds").GetDouble());
        Assert.Equal(7.0, program.GetProperty("samples").GetProperty("parallel").GetProperty("2")[0].GetProperty("steals").GetProperty("remoteSteals").GetDouble());

        Assert.Contains("Stealing: cache-group-first, groups per-worker (this machine: 1 last-level cache group(s))", table, StringComparison.Ordinal);
        Assert.Contains("overhead  waiting |   steals    local   remote", table, StringComparison.Ordinal);
        string[] lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal(FactoredCsvHeader, lines[0]);
        Assert.Contains(",7,0,7,0.05,0.2,,,,", lines[2], StringComparison.Ordinal); // no intervals (one round), no throttling measured: empty cells
    }

    private sealed class ForcedStealProgram : IWorkloadProgram
    {
        public bool ChildRanElsewhere { get; private set; }

        public string Name => "forced-steal";

        public void Initialize()
        {
        }

        public void RunSequential()
        {
        }

        public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken) =>
            Task.Factory.StartNew(() =>
            {
                int root = Environment.CurrentManagedThreadId;
                int childThread = 0;
                // Queued from a worker: onto this worker's own deque, which this worker does not pop while it spins here.
                Task child = Task.Factory.StartNew(() => childThread = Environment.CurrentManagedThreadId, CancellationToken.None, TaskCreationOptions.None, scheduler);
                if (!SpinWait.SpinUntil(() => child.IsCompleted, Timeout))
                {
                    throw new TimeoutException("no worker stole the child within the timeout");
                }

                ChildRanElsewhere = childThread != root;
            }, cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler);

        public void Verify()
        {
        }
    }

    internal const string FactoredCsvHeader = "program,p,ts,t1,telision,tp,ip,wp,fp,linear,maximal,idleSpecific,inflationSpecific,actual,elision,"
        + "steals,localSteals,remoteSteals,schedulingOverhead,waiting,fp_ci99_lo,fp_ci99_hi,maximal_ci99_lo,maximal_ci99_hi,"
        + "idleSpecific_ci99_lo,idleSpecific_ci99_hi,inflationSpecific_ci99_lo,inflationSpecific_ci99_hi,actual_ci99_lo,actual_ci99_hi,elision_ci99_lo,elision_ci99_hi,"
        + "throttledRuns,throttledSeconds,throttledPeriods";
}
