using System.Text.Json;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Budget;

/// <summary>
/// The <c>divcon</c> CLI started inside a real cgroup with a CPU quota, as a user in a 1-CPU container would run it
/// (issue 21's "done when"): <c>topology</c> reports a budget of 1 and why; <c>factored</c> measures P = 1 only by
/// default, refuses more workers without <c>--over-budget</c>, and with it reports the throttling beside the figures.
/// Each test makes its own group and removes it; where no group can be made they are reported Skipped with the reason.
/// </summary>
public sealed class CgroupCliTests : IDisposable
{
    private static readonly TimeSpan CliTimeout = TimeSpan.FromMinutes(4);
    private readonly string _root = Path.Combine(Path.GetTempPath(), "divcon-cgroup-cli-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    [CgroupFact]
    public void Topology_under_a_one_cpu_quota_reports_a_budget_of_one_and_why()
    {
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 100_000);
        bool severalAllowed = ThreadAffinity.GetProcessAffinity().Count > 1;

        ChildResult text = group.RunCli(CliTimeout, "topology");
        ChildResult json = group.RunCli(CliTimeout, "topology", "--json");

        Assert.True(text.ExitCode == 0, text.Error);
        Assert.Contains("CPU budget (the workers a scheduler starts by default): 1", text.Output, StringComparison.Ordinal);
        Assert.Contains($"CPU quota: 1.00 CPU (100000 µs per 100000 µs) in {group.QuotaDirectory}/", text.Output, StringComparison.Ordinal);
        if (severalAllowed)
        {
            Assert.Contains("budget: 1 core: the CPU quota, 1.00 CPU rounded up to 1, is below the", text.Output, StringComparison.Ordinal);
        }

        Assert.True(json.ExitCode == 0, json.Error);
        using JsonDocument doc = JsonDocument.Parse(json.Output);
        JsonElement budget = doc.RootElement.GetProperty("budget");
        Assert.Equal(1, budget.GetProperty("cores").GetInt32());
        Assert.Equal(100_000, budget.GetProperty("quota").GetProperty("quotaMicroseconds").GetInt64());
        Assert.Equal(group.QuotaDirectory, budget.GetProperty("quota").GetProperty("directory").GetString());
        Assert.Equal(group.ProcessDirectory, budget.GetProperty("cgroupDirectory").GetString());
        if (severalAllowed)
        {
            Assert.Equal("quota", budget.GetProperty("limitedBy").GetString());
        }

        Assert.False(string.IsNullOrWhiteSpace(budget.GetProperty("reason").GetString()));
    }

    [CgroupFact]
    public void Factored_under_a_one_cpu_quota_measures_one_worker_only_and_refuses_more_without_over_budget()
    {
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 100_000);
        string outDir = Path.Combine(_root, "default");
        string refusedDir = Path.Combine(_root, "refused");

        ChildResult run = group.RunCli(CliTimeout, "factored", "--programs", "montecarlopi", "--size", "small", "--runs", "2", "--warmup", "0",
            "--plots", "none", "--out", outDir);
        ChildResult refused = group.RunCli(CliTimeout, "factored", "--programs", "montecarlopi", "--size", "small", "--max-workers", "2",
            "--plots", "none", "--out", refusedDir);

        Assert.True(run.ExitCode == 0, run.Error);
        using JsonDocument doc = JsonDocument.Parse(File.ReadAllText(Path.Combine(outDir, "factored.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal([1], root.GetProperty("settings").GetProperty("workerCounts").EnumerateArray().Select(e => e.GetInt32()));
        JsonElement program = Assert.Single(root.GetProperty("programs").EnumerateArray());
        Assert.Equal(1.0, Assert.Single(program.GetProperty("points").EnumerateArray()).GetProperty("p").GetDouble());
        Assert.Equal(1, root.GetProperty("machine").GetProperty("budget").GetProperty("cores").GetInt32());
        Assert.Equal(group.QuotaDirectory, root.GetProperty("machine").GetProperty("budget").GetProperty("quota").GetProperty("directory").GetString());

        // The throttling counters were read around every timed run (this group has them), and the table says how they count.
        foreach (JsonElement sample in program.GetProperty("samples").GetProperty("parallel").GetProperty("1").EnumerateArray())
        {
            Assert.Equal(JsonValueKind.Object, sample.GetProperty("throttling").ValueKind);
        }

        Assert.Equal(2, program.GetProperty("samples").GetProperty("sequentialThrottling").GetArrayLength());
        Assert.Contains("CPU budget: 1 core", run.Output, StringComparison.Ordinal);
        Assert.Contains("F_P excludes throttled time", run.Output, StringComparison.Ordinal);

        Assert.Equal(2, refused.ExitCode);
        string line = Assert.Single(refused.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("divcon factored: --max-workers 2: 2 workers exceed the CPU budget of 1", line, StringComparison.Ordinal);
        Assert.Contains("--over-budget", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(refusedDir));
    }

    [CgroupFact]
    public void Every_experiment_refuses_cores_or_workers_over_the_budget_in_one_line()
    {
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 100_000);
        bool severalAllowed = ThreadAffinity.GetProcessAffinity().Count > 1;

        foreach (string[] command in (string[][])[
            ["cyclic", "--cores", "2"], ["symmetric", "--cores", "2"], ["scalability", "--cores", "2"], ["granularity", "--cores", "2"],
            ["phases", "--cores", "2"], ["compare-stealing", "--workers", "2"]])
        {
            string outDir = Path.Combine(_root, command[0]);
            ChildResult refused = group.RunCli(CliTimeout, [.. command, "--out", outDir]);

            Assert.True(refused.ExitCode == 2, $"{command[0]}: exit {refused.ExitCode}: {refused.Error}");
            string line = Assert.Single(refused.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            // With one allowed processor, --cores 2 asks for a processor that is not there: refused for that reason first.
            Assert.StartsWith(severalAllowed || command[1] == "--workers"
                ? $"divcon {command[0]}: {command[1]} 2: 2 workers exceed the CPU budget of 1 ("
                : $"divcon {command[0]}: --cores must be between 1 and 1 (the processors this process may use); got 2.", line, StringComparison.Ordinal);
            Assert.False(Directory.Exists(outDir), command[0]);
        }
    }

    [CgroupFact]
    public void Factored_forced_over_the_budget_reports_the_throttling_beside_the_figures()
    {
        // One CPU in 1 ms periods (as in CgroupQuotaTests): two workers side by side for half a millisecond exceed it,
        // which happens within each run even on a loaded machine.
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 1_000, periodMicroseconds: 1_000);
        string outDir = Path.Combine(_root, "forced");

        ChildResult run = group.RunCli(CliTimeout, "factored", "--programs", "montecarlopi", "--size", "small", "--runs", "4", "--warmup", "0",
            "--max-workers", "2", "--over-budget", "--plots", "none", "--out", outDir);

        Assert.True(run.ExitCode == 0, run.Error);
        Assert.Contains("divcon factored: note: --max-workers 2 with --over-budget: 2 workers exceed the CPU budget of 1", run.Error, StringComparison.Ordinal);
        using JsonDocument doc = JsonDocument.Parse(File.ReadAllText(Path.Combine(outDir, "factored.json")));
        JsonElement program = Assert.Single(doc.RootElement.GetProperty("programs").EnumerateArray());
        JsonElement[] runs = program.GetProperty("samples").GetProperty("parallel").GetProperty("2").EnumerateArray().ToArray();
        Assert.Equal(4, runs.Length);
        long throttledPeriods = runs.Sum(r => r.GetProperty("throttling").GetProperty("throttledPeriods").GetInt64());
        Assert.True(throttledPeriods > 0, $"no throttled period in four runs of two workers under a 1-CPU quota: {run.Output}");

        // The P = 2 point carries the runs' throttling, its W_P leaves the throttled time out, and its row says it was throttled.
        JsonElement point = program.GetProperty("points").EnumerateArray().Single(p => p.GetProperty("p").GetDouble() == 2);
        JsonElement summary = point.GetProperty("throttling");
        double theta = summary.GetProperty("meanThrottledSeconds").GetDouble();
        Assert.True(summary.GetProperty("throttledRuns").GetInt32() > 0);
        Assert.Equal(2 * point.GetProperty("tp").GetDouble() - point.GetProperty("ip").GetDouble() - theta, point.GetProperty("wp").GetDouble(), 9);
        Assert.Contains(run.Output.Split('\n'), l => l.StartsWith("   2 ", StringComparison.Ordinal) && l.Contains("  throttled: ", StringComparison.Ordinal));
        Assert.Contains("some runs were throttled by the CPU quota", run.Output, StringComparison.Ordinal);
    }
}
