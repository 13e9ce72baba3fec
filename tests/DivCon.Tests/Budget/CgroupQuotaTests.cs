using System.Text.Json;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Budget;

/// <summary>
/// A child process started inside a real cgroup with a CPU quota (cgroup v1 here, v2 where the host has it): what it
/// reports for the budget, the default worker counts of both schedulers, and the throttling a CPU-bound run over the
/// quota leaves in <c>cpu.stat</c>. Each test makes its own group and removes it, whatever happens; where no group
/// can be made the tests are reported Skipped with the reason (<see cref="CgroupFactAttribute"/>).
/// </summary>
public sealed class CgroupQuotaTests
{
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromMinutes(2);

    [CgroupFact]
    public void Under_a_one_cpu_quota_the_budget_is_one_and_both_schedulers_start_one_worker()
    {
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 100_000);

        using JsonDocument report = JsonDocument.Parse(group.RunProbe(ProbeTimeout, "report"));
        JsonElement r = report.RootElement;

        Assert.Equal(1, r.GetProperty("budgetCores").GetInt32());
        Assert.Equal(1.0, r.GetProperty("quotaCpus").GetDouble());
        Assert.Equal(group.QuotaDirectory, r.GetProperty("quotaDirectory").GetString());
        Assert.Equal(group.ProcessDirectory, r.GetProperty("cgroupDirectory").GetString());
        Assert.Equal(1, r.GetProperty("workStealingWorkers").GetInt32());
        Assert.Equal(1, r.GetProperty("multiProgramWorkers").GetInt32());
        Assert.Equal(1, r.GetProperty("multiProgramProcessors").GetArrayLength()); // pinned to the one processor placement chose
        Assert.Equal(JsonValueKind.Null, r.GetProperty("workStealingWarning").ValueKind);
        Assert.Equal(JsonValueKind.Null, r.GetProperty("multiProgramWarning").ValueKind);

        // The runtime applies the same rule to the process's own group: its ProcessorCount agrees.
        Assert.Equal(1, r.GetProperty("environmentProcessorCount").GetInt32());
        if (ThreadAffinity.GetProcessAffinity().Count > 1)
        {
            Assert.Equal(nameof(CpuBudgetLimit.Quota), r.GetProperty("limitedBy").GetString());
        }
    }

    [CgroupFact]
    public void A_quota_on_a_parent_group_limits_a_process_in_a_nested_group()
    {
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 50_000, nested: true);

        using JsonDocument report = JsonDocument.Parse(group.RunProbe(ProbeTimeout, "report"));
        JsonElement r = report.RootElement;

        Assert.Equal(group.ProcessDirectory, r.GetProperty("cgroupDirectory").GetString());
        Assert.Equal(group.QuotaDirectory, r.GetProperty("quotaDirectory").GetString());
        Assert.Equal(0.5, r.GetProperty("quotaCpus").GetDouble());
        Assert.Equal(1, r.GetProperty("budgetCores").GetInt32());
        Assert.Equal(1, r.GetProperty("workStealingWorkers").GetInt32());
        Assert.Equal(1, r.GetProperty("multiProgramWorkers").GetInt32());
    }

    [CgroupFact]
    public void A_cpu_bound_run_with_more_workers_than_the_quota_is_throttled_and_cpu_stat_shows_it()
    {
        // One CPU again, in 1 ms periods (the kernel's shortest): two workers need to run side by side for only half a
        // millisecond to exceed it, which happens within seconds even when other processes load the machine so much
        // that they rarely get a whole 100 ms period together.
        using TestCgroup group = TestCgroup.Create(quotaMicroseconds: 1_000, periodMicroseconds: 1_000);

        // Two spinning workers (an explicit count over the budget of 1) until cpu.stat shows throttled periods and
        // throttled time (the kernel adds the time when a throttled group runs again, so it can lag the period count);
        // bounded, so a machine where it never shows fails the test instead of hanging it.
        using JsonDocument spin = JsonDocument.Parse(group.RunProbe(ProbeTimeout, "spin", "--workers", "2", "--timeout", "60"));
        JsonElement s = spin.RootElement;

        Assert.StartsWith("2 workers exceed the CPU budget of 1", s.GetProperty("warning").GetString(), StringComparison.Ordinal);
        Assert.Equal(group.QuotaDirectory + "/cpu.stat", s.GetProperty("source").GetString());
        Assert.True(s.GetProperty("throttledPeriods").GetInt64() > 0, $"no throttled period in {s.GetProperty("elapsedSeconds").GetDouble():0.0} s: {s}");
        Assert.True(s.GetProperty("throttledSeconds").GetDouble() > 0);

        // The same counters read from outside, through the parser the harness will use, after the child has exited.
        CpuThrottling? after = CpuThrottling.Read(RootedCgroupFiles.System, group.QuotaDirectory, notes: null);
        Assert.NotNull(after);
        Assert.True(after.ThrottledPeriods >= s.GetProperty("throttledPeriods").GetInt64());
    }
}
