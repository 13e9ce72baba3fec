using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// How many cores this process can use, and where each figure came from: the processors it may run on, the CFS
/// quota of its cgroup (v1 or v2), and <c>DOTNET_PROCESSOR_COUNT</c>. <see cref="WorkStealingTaskScheduler"/> and
/// <see cref="Multiprogramming.MultiProgramScheduler"/> start <see cref="Cores"/> workers unless told otherwise.
/// </summary>
/// <remarks>
/// <para>
/// <b>The rule</b> is the .NET runtime's own (<c>GetCurrentProcessCpuCount</c>, which gives
/// <see cref="Environment.ProcessorCount"/>): <c>DOTNET_PROCESSOR_COUNT</c>, when it holds a whole number from 1 to
/// 65535, is the answer; otherwise the number of allowed processors, lowered to the quota rounded up (at least 1)
/// when that is smaller. A Kubernetes pod with <c>limits.cpu: 4</c> on a 64-core node therefore gets 4, not 64: 64
/// workers under a 4-CPU quota would be throttled by the kernel in turns.
/// </para>
/// <para>
/// <b>Where DivCon differs from the runtime.</b> The runtime reads the quota of the process's own cgroup only; DivCon
/// also walks up the parents to the hierarchy's mount point and takes the tightest quota found (as the runtime's GC
/// does for cgroup v2 <c>memory.max</c>): a quota on a parent throttles its children just the same, and a process
/// placed in a sub-group of a limited one would otherwise see no limit. Unlike <see cref="Environment.ProcessorCount"/>,
/// which is read once at start-up, <see cref="Detect"/> reads the files on each call.
/// </para>
/// <para>
/// <b>Allowed processors</b> are the process's affinity mask (<see cref="ThreadAffinity.GetProcessAffinity"/>), which
/// the kernel already intersects with the cgroup cpuset; the cpuset is read too, to say which of the two narrowed it.
/// Nothing here throws for a missing or malformed cgroup file: what cannot be read counts as "no limit", and
/// <see cref="Notes"/> says what was skipped and why.
/// </para>
/// </remarks>
public sealed record CpuBudget
{
    /// <summary>The usable core count: the default number of workers. At least 1.</summary>
    public required int Cores { get; init; }

    /// <summary>Which rule set <see cref="Cores"/>.</summary>
    public required CpuBudgetLimit LimitedBy { get; init; }

    /// <summary>The processors the process may run on, ascending (its affinity mask).</summary>
    public required IReadOnlyList<int> AllowedProcessors { get; init; }

    /// <summary>Where <see cref="AllowedProcessors"/> came from, and whether the cgroup cpuset or the mask narrowed it.</summary>
    public string AllowedProcessorsSource { get; init; } = "";

    /// <summary>The tightest CFS quota from the process's cgroup up to the root of its hierarchy; null for none.</summary>
    public CpuQuota? Quota { get; init; }

    /// <summary>The value of <c>DOTNET_PROCESSOR_COUNT</c> (or <c>COMPlus_PROCESSOR_COUNT</c>) when it is valid; null otherwise.</summary>
    public int? ProcessorCountOverride { get; init; }

    /// <summary>The variable that gave <see cref="ProcessorCountOverride"/>, e.g. "DOTNET_PROCESSOR_COUNT=1".</summary>
    public string? ProcessorCountOverrideSource { get; init; }

    /// <summary>The cgroup version of the cpu controller (1 or 2); null when none was found.</summary>
    public int? CgroupVersion { get; init; }

    /// <summary>The process's own cgroup directory for the cpu controller; null when none was found.</summary>
    public string? CgroupDirectory { get; init; }

    /// <summary>What could not be read or was ignored, and why (missing controller, malformed file, invalid variable).</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];

    /// <summary>Why <see cref="Cores"/> has its value, in one sentence.</summary>
    public string Reason => LimitedBy switch
    {
        CpuBudgetLimit.Quota when Quota is not null => string.Create(CultureInfo.InvariantCulture,
            $"the CPU quota, {Quota.Cpus:0.00} CPU rounded up to {Quota.Cores}, is below the {AllowedProcessors.Count} allowed processors"),
        CpuBudgetLimit.Quota => string.Create(CultureInfo.InvariantCulture, $"a CPU quota below the {AllowedProcessors.Count} allowed processors"),
        CpuBudgetLimit.ProcessorCountVariable => $"{ProcessorCountOverrideSource} takes precedence, as it does for Environment.ProcessorCount",
        CpuBudgetLimit.RuntimeProcessorCount => string.Create(CultureInfo.InvariantCulture,
            $"Environment.ProcessorCount ({Cores}) is below the {AllowedProcessors.Count} allowed processors"),
        _ => Quota is null
            ? string.Create(CultureInfo.InvariantCulture, $"{AllowedProcessors.Count} allowed processors and no CPU quota")
            : string.Create(CultureInfo.InvariantCulture, $"{AllowedProcessors.Count} allowed processors, no more than the CPU quota rounded up ({Quota.Cores})"),
    };

    /// <summary>Reads the budget of this process now (see the type's remarks).</summary>
    /// <exception cref="System.ComponentModel.Win32Exception">The operating system refused to report the affinity mask.</exception>
    public static CpuBudget Detect() =>
        DetectFrom(RootedCgroupFiles.System, ThreadAffinity.GetProcessAffinity(), Environment.GetEnvironmentVariable, OperatingSystem.IsLinux() ? null : Environment.ProcessorCount);

    /// <summary>
    /// The throttling counters (<c>cpu.stat</c>) of the cgroup whose quota limits this process (else of its own
    /// cgroup), read now; null where there is no cgroup cpu controller or no counters. Subtract two readings to get
    /// what a run lost to the quota (<see cref="CpuThrottling.Since"/>).
    /// </summary>
    public CpuThrottling? ReadThrottling() => ReadThrottling(RootedCgroupFiles.System);

    /// <summary>
    /// Null when <paramref name="workers"/> fits the budget; otherwise a warning saying by how much it exceeds it and
    /// why that costs (used by the schedulers when an explicit worker count or processor list wins over the budget).
    /// </summary>
    /// <param name="workers">The number of workers a scheduler will run.</param>
    public string? CheckWorkers(int workers) => workers <= Cores ? null : string.Create(CultureInfo.InvariantCulture,
        $"{workers} workers exceed the CPU budget of {Cores} ({Reason}): {(LimitedBy == CpuBudgetLimit.Quota ? "the kernel will throttle them in turns" : "they will share processors, time-sliced by the OS")}.");

    /// <summary>
    /// The processors a pinned pool of <see cref="Cores"/> workers uses: every allowed processor when the budget
    /// covers them all; under a quota (fewer workers than allowed processors) the placement's choice,
    /// <see cref="CpuTopology.SelectContiguous"/>: packed into as few cache groups (then NUMA nodes) as possible. A
    /// quota limits CPU time, not processors, so any choice is throttled alike; packed workers share a last-level
    /// cache, which makes their steals cheaper, and leave whole cache groups to the rest of the container.
    /// </summary>
    public IReadOnlyList<int> SelectProcessors() => SelectProcessors(CpuTopology.Detect);

    /// <summary>One line per figure: allowed processors, quota, override, budget, each with its source; then the notes.</summary>
    public IReadOnlyList<string> Describe()
    {
        var lines = new List<string>
        {
            string.Create(CultureInfo.InvariantCulture, $"allowed processors: {CpuList.Format(AllowedProcessors)} ({AllowedProcessors.Count}), from {AllowedProcessorsSource}"),
            Quota is null
                ? $"CPU quota: none{(CgroupDirectory is null ? " (no cgroup cpu controller found)" : $" from {CgroupDirectory} up to the root of its cgroup v{CgroupVersion} hierarchy")}"
                : $"CPU quota: {Quota}",
            ProcessorCountOverride is null ? "DOTNET_PROCESSOR_COUNT: not set" : $"processor count override: {ProcessorCountOverrideSource}",
            string.Create(CultureInfo.InvariantCulture, $"budget: {Cores} core{(Cores == 1 ? "" : "s")}: {Reason}"),
        };
        lines.AddRange(Notes.Select(n => "note: " + n));
        return lines;
    }

    /// <summary>E.g. "1 core: the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors".</summary>
    public override string ToString() =>
        string.Create(CultureInfo.InvariantCulture, $"{Cores} core{(Cores == 1 ? "" : "s")}: {Reason}");

    /// <summary>The testable core of <see cref="Detect"/>.</summary>
    /// <param name="files">Where the cgroup files are read.</param>
    /// <param name="allowed">The affinity mask.</param>
    /// <param name="environment">Reads an environment variable.</param>
    /// <param name="runtimeProcessorCount">Outside Linux, <see cref="Environment.ProcessorCount"/>; null on Linux.</param>
    internal static CpuBudget DetectFrom(ICgroupFiles files, IReadOnlyList<int> allowed, Func<string, string?> environment, int? runtimeProcessorCount)
    {
        ArgumentNullException.ThrowIfNull(allowed);
        int[] allowedIds = allowed.Order().ToArray();
        var notes = new List<string>();

        Cgroup.Location? cpu = Cgroup.Locate(files, "cpu", notes);
        CpuQuota? quota = cpu is null ? null : ReadTightestQuota(files, cpu, notes);
        string allowedSource = DescribeAllowed(files, allowedIds);
        (int? overrideValue, string? overrideSource) = ReadProcessorCountVariable(environment, notes);

        int cores = Math.Max(1, allowedIds.Length);
        CpuBudgetLimit limitedBy = CpuBudgetLimit.AllowedProcessors;
        if (overrideValue is int forced)
        {
            (cores, limitedBy) = (forced, CpuBudgetLimit.ProcessorCountVariable);
        }
        else if (quota is not null && quota.Cores < cores)
        {
            (cores, limitedBy) = (quota.Cores, CpuBudgetLimit.Quota);
        }
        else if (runtimeProcessorCount is int runtime && runtime >= 1 && runtime < cores)
        {
            (cores, limitedBy) = (runtime, CpuBudgetLimit.RuntimeProcessorCount);
        }

        return new CpuBudget
        {
            Cores = cores,
            LimitedBy = limitedBy,
            AllowedProcessors = allowedIds,
            AllowedProcessorsSource = allowedSource,
            Quota = quota,
            ProcessorCountOverride = overrideValue,
            ProcessorCountOverrideSource = overrideSource,
            CgroupVersion = cpu?.Version,
            CgroupDirectory = cpu?.Directory,
            Notes = notes,
        };
    }

    internal CpuThrottling? ReadThrottling(ICgroupFiles files)
    {
        string? directory = Quota?.Directory ?? CgroupDirectory;
        return directory is null ? null : CpuThrottling.Read(files, directory, notes: null);
    }

    internal IReadOnlyList<int> SelectProcessors(Func<CpuTopology> topology)
    {
        if (Cores >= AllowedProcessors.Count)
        {
            return AllowedProcessors;
        }

        // Only under a quota (or an override below the mask) is there a choice to make, and only then is sysfs read.
        CpuTopology machine = topology();
        int[] usable = machine.Processors.Intersect(AllowedProcessors).ToArray();
        return usable.Length == 0
            ? AllowedProcessors.Take(Cores).ToArray()
            : machine.Restrict(usable).SelectContiguous(Math.Min(Cores, usable.Length));
    }

    /// <summary>Checks a budget given in options (it may have been built by hand) before a scheduler sizes itself by it.</summary>
    internal void Validate(string paramName)
    {
        if (Cores < 1 || AllowedProcessors is null || AllowedProcessors.Count == 0)
        {
            throw new ArgumentException(
                $"The CPU budget must have at least 1 core and one allowed processor; got {Cores} cores and {AllowedProcessors?.Count ?? 0} processors.", paramName);
        }
    }

    private static CpuQuota? ReadTightestQuota(ICgroupFiles files, Cgroup.Location cpu, List<string> notes)
    {
        CpuQuota? tightest = null;
        bool anyFile = false;
        foreach (string directory in cpu.DirectoriesUpToMount())
        {
            Cgroup.QuotaText text;
            if (cpu.Version == 1)
            {
                string? quota = files.ReadText(directory + "/cpu.cfs_quota_us");
                string? period = files.ReadText(directory + "/cpu.cfs_period_us");
                if (quota is null || period is null)
                {
                    continue;
                }

                text = Cgroup.ParseV1Quota(quota, period);
            }
            else
            {
                string? max = files.ReadText(directory + "/cpu.max");
                if (max is null)
                {
                    continue; // the root never has cpu.max; a group whose parent did not enable the cpu controller neither
                }

                text = Cgroup.ParseV2Max(max);
            }

            anyFile = true;
            if (text.Problem is not null)
            {
                notes.Add($"{directory}: {text.Problem}; this level is treated as unlimited.");
            }
            else if (text.IsLimit)
            {
                var found = new CpuQuota(text.QuotaMicroseconds, text.PeriodMicroseconds, directory, cpu.Version);
                if (tightest is null || found.IsTighterThan(tightest))
                {
                    tightest = found;
                }
            }
        }

        if (!anyFile)
        {
            notes.Add(cpu.Version == 1
                ? $"No cpu.cfs_quota_us from {cpu.Directory} up to {cpu.MountPoint}: the cpu controller's files are missing, so no quota is known."
                : $"No cpu.max from {cpu.Directory} up to {cpu.MountPoint}: the cpu controller is not enabled for this cgroup (cgroup.subtree_control of its parent), so no quota applies.");
        }

        return tightest;
    }

    private static string DescribeAllowed(ICgroupFiles files, int[] allowed)
    {
        const string mask = "the process affinity mask (sched_getaffinity)";
        var ignored = new List<string>();
        Cgroup.Location? cpuset = Cgroup.Locate(files, "cpuset", ignored);
        if (cpuset is null)
        {
            return mask;
        }

        string[] names = cpuset.Version == 1 ? ["cpuset.effective_cpus", "cpuset.cpus"] : ["cpuset.cpus.effective"];
        foreach (string name in names)
        {
            string path = cpuset.Directory + "/" + name;
            if (files.ReadText(path) is string text && CpuList.TryParse(text, out IReadOnlyList<int> set) && set.Count > 0)
            {
                return set.SequenceEqual(allowed)
                    ? $"{mask}, equal to the cgroup cpuset ({path})"
                    : $"{mask}, narrower than the cgroup cpuset {CpuList.Format(set)} ({path}): taskset or sched_setaffinity restricted it further";
            }
        }

        return mask;
    }

    private static (int? Value, string? Source) ReadProcessorCountVariable(Func<string, string?> environment, List<string> notes)
    {
        // The runtime's CLRConfig reads DOTNET_ first, then the older COMPlus_ prefix; the value is decimal
        // (ParseIntegerAsBase10) and used only from 1 to 0xFFFF.
        foreach (string name in (string[])["DOTNET_PROCESSOR_COUNT", "COMPlus_PROCESSOR_COUNT"])
        {
            string? value = environment(name);
            if (value is null)
            {
                continue;
            }

            if (int.TryParse(value.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out int count) && count is >= 1 and <= 0xFFFF)
            {
                return (count, $"{name}={count}");
            }

            notes.Add($"{name}='{value}' is ignored, as the runtime ignores it: it is not a whole number from 1 to 65535.");
            return (null, null);
        }

        return (null, null);
    }
}
