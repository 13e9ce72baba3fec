namespace DivCon.Scheduling;

/// <summary>Which rule set a <see cref="CpuBudget"/>'s core count.</summary>
public enum CpuBudgetLimit
{
    /// <summary>The processors the process may run on (its affinity mask, which a cgroup cpuset or <c>taskset</c> narrows).</summary>
    AllowedProcessors,

    /// <summary>A CFS quota (cgroup <c>cpu.cfs_quota_us</c> or <c>cpu.max</c>) below the allowed processors, rounded up.</summary>
    Quota,

    /// <summary>
    /// <c>DOTNET_PROCESSOR_COUNT</c> (or the older <c>COMPlus_PROCESSOR_COUNT</c>), which, as for the runtime's
    /// <see cref="Environment.ProcessorCount"/>, takes precedence over everything else.
    /// </summary>
    ProcessorCountVariable,

    /// <summary>
    /// Outside Linux: <see cref="Environment.ProcessorCount"/> below the allowed processors (on Windows, a job
    /// object's CPU rate limit).
    /// </summary>
    RuntimeProcessorCount,
}
