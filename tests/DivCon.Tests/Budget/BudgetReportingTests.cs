using System.Text.Json;
using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Throttling;
using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>
/// Where the CPU budget and the throttling show (issue 21): <c>divcon topology</c> and its JSON, the machine record of
/// every result, the option check shared by the experiments, and the factored and cyclic reports.
/// </summary>
public sealed class BudgetReportingTests
{
    [Fact]
    public void Topology_text_ends_with_the_budget_and_where_each_figure_came_from()
    {
        var topology = new CpuTopology([0, 1], [new CacheGroup([0, 1], 3, 32L << 20)], [new NumaNode(0, [0, 1])]);

        string text = TopologyCommand.ToText(topology, BudgetFakes.OneCpuQuota);

        string expected = string.Join(Environment.NewLine,
            "CPU budget (the workers a scheduler starts by default): 1",
            "  allowed processors: 0-1 (2), from the process affinity mask (sched_getaffinity)",
            "  CPU quota: 1.00 CPU (100000 µs per 100000 µs) in /sys/fs/cgroup/cpu/app/cpu.cfs_quota_us, cpu.cfs_period_us (cgroup v1)",
            "  DOTNET_PROCESSOR_COUNT: not set",
            "  budget: 1 core: the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors",
            string.Empty);
        Assert.EndsWith(expected, text, StringComparison.Ordinal);
        Assert.StartsWith(TopologyCommand.ToText(topology), text, StringComparison.Ordinal);
    }

    [Fact]
    public void Topology_json_holds_the_budget_with_enums_as_strings_and_reads_back()
    {
        var topology = new CpuTopology([0, 1], [new CacheGroup([0, 1])], [new NumaNode(0, [0, 1])]);

        string json = TopologyCommand.ToJson(topology, BudgetFakes.OneCpuQuota);

        using JsonDocument doc = JsonDocument.Parse(json);
        JsonElement budget = doc.RootElement.GetProperty("budget");
        Assert.Equal(1, budget.GetProperty("cores").GetInt32());
        Assert.Equal("quota", budget.GetProperty("limitedBy").GetString());
        Assert.Equal([0, 1], budget.GetProperty("allowedProcessors").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal(100_000, budget.GetProperty("quota").GetProperty("periodMicroseconds").GetInt64());
        Assert.Equal(1.0, budget.GetProperty("quota").GetProperty("cpus").GetDouble());
        Assert.Equal("/sys/fs/cgroup/cpu/app", budget.GetProperty("quota").GetProperty("directory").GetString());
        Assert.Equal(BudgetFakes.OneCpuQuota.Reason, budget.GetProperty("reason").GetString());
        Assert.Equal(JsonValueKind.Null, budget.GetProperty("processorCountOverride").ValueKind);

        CpuBudget back = JsonSerializer.Deserialize(budget.GetRawText(), HarnessJsonContext.Files.CpuBudget)!;
        Assert.Equal(1, back.Cores);
        Assert.Equal(CpuBudgetLimit.Quota, back.LimitedBy);
        Assert.Equal(BudgetFakes.OneCpuQuota.Quota, back.Quota);
        Assert.Equal(BudgetFakes.OneCpuQuota.Reason, back.Reason);
    }

    [Fact]
    public void The_machine_record_keeps_the_budget_and_reads_files_written_before_it()
    {
        FactoredResult result = Factored(BudgetFakes.OneCpuQuota, throttling: null);

        string json = System.Text.Encoding.UTF8.GetString(ResultJson.ToUtf8(result, HarnessJsonContext.Files.FactoredResult));
        FactoredResult back = ResultJson.Read(json, HarnessJsonContext.Files.FactoredResult, FactoredResult.FileKind);

        Assert.Equal(1, back.Machine.Budget!.Cores);
        Assert.Equal(BudgetFakes.OneCpuQuota.Quota, back.Machine.Budget.Quota);

        // A schema-2 file from before the budget was recorded has no "budget": it still reads, with none.
        using JsonDocument doc = JsonDocument.Parse(json);
        var withoutBudget = new Dictionary<string, JsonElement>();
        foreach (JsonProperty p in doc.RootElement.GetProperty("machine").EnumerateObject().Where(p => p.Name != "budget"))
        {
            withoutBudget[p.Name] = p.Value;
        }

        string old = json.Replace(doc.RootElement.GetProperty("machine").GetRawText(), JsonSerializer.Serialize(withoutBudget), StringComparison.Ordinal);
        Assert.DoesNotContain("\"budget\"", old, StringComparison.Ordinal);
        Assert.Null(ResultJson.Read(old, HarnessJsonContext.Files.FactoredResult, FactoredResult.FileKind).Machine.Budget);
    }

    [Theory]
    [InlineData(1, false, null, null)]
    [InlineData(2, false,
        "--cores 2: 2 workers exceed the CPU budget of 1 (the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors): the kernel will throttle them in turns. Use at most 1, or add --over-budget to run anyway.",
        null)]
    [InlineData(2, true, null,
        "--cores 2 with --over-budget: 2 workers exceed the CPU budget of 1 (the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors): the kernel will throttle them in turns. Throttling is reported beside the figures.")]
    public void A_count_over_the_budget_is_refused_in_one_line_unless_forced(int requested, bool overBudget, string? problem, string? note)
    {
        var problems = new List<string>();
        var notes = new List<string>();

        CommandInput.CheckBudget("--cores", requested, BudgetFakes.OneCpuQuota, overBudget, problems, notes);

        Assert.Equal(problem is null ? [] : [problem], problems);
        Assert.Equal(note is null ? [] : [note], notes);
    }

    [Fact]
    public void Without_a_quota_a_count_over_the_processors_says_they_would_be_time_sliced()
    {
        var problems = new List<string>();

        CommandInput.CheckBudget("--max-workers", 6, BudgetFakes.FourProcessors, overBudget: false, problems, []);

        Assert.Equal(["--max-workers 6: 6 workers exceed the CPU budget of 4 (4 allowed processors and no CPU quota): they will share processors, time-sliced by the OS. Use at most 4, or add --over-budget to run anyway."], problems);
    }

    [Fact]
    public void The_factored_table_says_how_throttling_counts_and_marks_each_throttled_figure()
    {
        string measured = FactoredTextReport.Table(Factored(BudgetFakes.OneCpuQuota, new ThrottlingSample(100, 12, 0.5)));
        string clean = FactoredTextReport.Table(Factored(BudgetFakes.OneCpuQuota, new ThrottlingSample(100, 0, 0)));
        string unmeasured = FactoredTextReport.Table(Factored(null, throttling: null));

        Assert.Contains("CPU budget: 1 core: the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors\n", measured, StringComparison.Ordinal);
        Assert.Contains("CPU throttling: some runs were throttled by the CPU quota (marked below)", measured, StringComparison.Ordinal);
        Assert.Contains("F_P excludes throttled time: Θ_P (throttled core-seconds per run, cpu.stat) is its own term, subtracted from the leftover: "
            + "W_P = P·T_P − I_P − Θ_P, F_P = W_P − (T_1 − Θ_1).", measured, StringComparison.Ordinal);
        Assert.Contains("  throttled by the CPU quota: T_s 1 of 1 runs, Θ 0.500 s, 12 of 100 periods per run", measured, StringComparison.Ordinal);
        Assert.Equal(2, measured.Split('\n').Count(l => l.EndsWith("|   steals    local   remote", StringComparison.Ordinal) == false
            && l.Contains("  throttled: 1 of 1 runs, Θ 0.500 s, 12 of 100 periods per run", StringComparison.Ordinal)));

        Assert.Contains("CPU throttling: no run was throttled (cgroup cpu.stat read around every run).", clean, StringComparison.Ordinal);
        Assert.DoesNotContain("throttled:", clean, StringComparison.Ordinal);
        Assert.Contains("CPU throttling: not measured (no cgroup cpu.stat to read here).", unmeasured, StringComparison.Ordinal);
        Assert.DoesNotContain("CPU budget:", unmeasured, StringComparison.Ordinal);
        Assert.DoesNotContain("F_P excludes", unmeasured, StringComparison.Ordinal);
    }

    [Fact]
    public void The_factored_csv_ends_with_the_throttling_of_each_point()
    {
        string[] lines = FactoredTextReport.Csv(Factored(BudgetFakes.OneCpuQuota, new ThrottlingSample(100, 12, 0.5))).ToString()
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

        Assert.EndsWith(",throttledRuns,throttledSeconds,throttledPeriods", lines[0], StringComparison.Ordinal);
        Assert.EndsWith(",1,0.5,12", lines[1], StringComparison.Ordinal);
        Assert.EndsWith(",1,0.5,12", lines[2], StringComparison.Ordinal);
    }

    [Fact]
    public void The_cyclic_note_lists_each_throttled_run_and_phase_or_says_there_was_none()
    {
        var throttled = new CyclicThrottling(
            [new AloneThrottling("quicksort", "csp", 1, [new ThrottlingSample(50, 0, 0), new ThrottlingSample(50, 4, 0.12)]),
             new AloneThrottling("mergesort", "csp", 1, [new ThrottlingSample(50, 0, 0)]),
             new AloneThrottling("quicksort", "t1", 1, [new ThrottlingSample(30, 3, 0.06)])],
            [new PhaseThrottling("equal-shares", 1, new ThrottlingSample(100, 45, 1.234)), new PhaseThrottling("shared", 1, new ThrottlingSample(100, 0, 0))]);

        IReadOnlyList<string> lines = CyclicTextReport.ThrottlingLines(Cyclic(throttled));
        IReadOnlyList<string> none = CyclicTextReport.ThrottlingLines(Cyclic(new CyclicThrottling([], [new PhaseThrottling("shared", 1, new ThrottlingSample(100, 0, 0))])));
        IReadOnlyList<string> unmeasured = CyclicTextReport.ThrottlingLines(Cyclic(null));

        Assert.Equal(
        [
            "CPU budget: 1 core: the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors",
            "CPU throttling by the CPU quota: the times of these runs and phases include time the kernel held the process back "
                + "(Θ = throttled core-seconds, cpu.stat), which is not the scheme's or the program's doing:",
            "  C^SP quicksort (repetition 1): 1 of 2 runs, Θ 0.060 s, 2 of 50 periods per run",
            "  T_1 quicksort (repetition 1): 1 of 1 runs, Θ 0.060 s, 3 of 30 periods per run",
            "  phase equal-shares (repetition 1): Θ 1.234 s, 45 of 100 periods",
        ], lines);
        Assert.Equal("CPU throttling: none (cgroup cpu.stat read around every timed run alone and every multiprogram phase).", none[^1]);
        Assert.Equal("CPU throttling: not measured (no cgroup cpu.stat to read here).", unmeasured[^1]);
        Assert.Contains("\n## CPU budget and throttling\n", CyclicTextReport.ThrottlingMarkdown(Cyclic(throttled)), StringComparison.Ordinal);
        Assert.Contains("- phase equal-shares (repetition 1): Θ 1.234 s, 45 of 100 periods\n", CyclicTextReport.ThrottlingMarkdown(Cyclic(throttled)), StringComparison.Ordinal);
        Assert.EndsWith(string.Concat(lines.Select(l => l + "\n")), ResultKinds.Cyclic.Table(Cyclic(throttled)), StringComparison.Ordinal);
    }

    // One program measured at P = 1 and 2, one run each, every run with the same throttling (null: not measured).
    private static FactoredResult Factored(CpuBudget? budget, ThrottlingSample? throttling)
    {
        var samples = new FactoredSamples([1.0], [], new Dictionary<int, IReadOnlyList<ParallelRunSample>>
        {
            [1] = [new(1.1, 0.0, Throttling: throttling)],
            [2] = [new(0.8, 0.1, Throttling: throttling)],
        })
        {
            SequentialThrottling = throttling is null ? null : [throttling],
        };
        return new FactoredResult("small", 1, new FactoredSettings([1, 2], 1, 0), [FactoredAnalysis.Analyze("montecarlopi", samples)])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", null, null, budget),
        };
    }

    private static CyclicResult Cyclic(CyclicThrottling? throttling) =>
        DivCon.Tests.Harness.CyclicFixtures.Result(["a"], ["x"],
            [DivCon.Tests.Harness.CyclicFixtures.Invocation(1, ["a"], [[1.0, 1.1]], [("x", [new ProgramRuns([2.0, 2.0], 0)])])]) with
        {
            Machine = new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", null, null, BudgetFakes.OneCpuQuota),
            Throttling = throttling,
        };
}
