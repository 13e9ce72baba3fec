using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>Budgets and throttling readings written by hand, for tests that must not depend on this machine's cgroup.</summary>
internal static class BudgetFakes
{
    /// <summary>Two allowed processors under a 1-CPU quota in a v1 group: a budget of 1.</summary>
    public static CpuBudget OneCpuQuota { get; } = new()
    {
        Cores = 1,
        LimitedBy = CpuBudgetLimit.Quota,
        AllowedProcessors = [0, 1],
        AllowedProcessorsSource = "the process affinity mask (sched_getaffinity)",
        Quota = new CpuQuota(100_000, 100_000, "/sys/fs/cgroup/cpu/app", 1),
        CgroupVersion = 1,
        CgroupDirectory = "/sys/fs/cgroup/cpu/app",
    };

    /// <summary>Four allowed processors and no quota: a budget of 4.</summary>
    public static CpuBudget FourProcessors { get; } = new()
    {
        Cores = 4,
        LimitedBy = CpuBudgetLimit.AllowedProcessors,
        AllowedProcessors = [0, 1, 2, 3],
        AllowedProcessorsSource = "the process affinity mask (sched_getaffinity)",
    };
}

/// <summary>
/// Throttling counters that grow by 10 periods, 1 throttled period and 1 ms of throttled time at every reading, so a
/// window with no other reading inside it counts exactly (10, 1, 0.001 s).
/// </summary>
internal sealed class CountingThrottling(string source = "/sys/fs/cgroup/cpu/app/cpu.stat")
{
    private int _reads;

    /// <summary>How many readings were taken.</summary>
    public int Reads => Volatile.Read(ref _reads);

    /// <summary>The next reading.</summary>
    public CpuThrottling Read()
    {
        int k = Interlocked.Increment(ref _reads);
        return new CpuThrottling(10L * k, k, TimeSpan.FromMilliseconds(k), source);
    }
}
