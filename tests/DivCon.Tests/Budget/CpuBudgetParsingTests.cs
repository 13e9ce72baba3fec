using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>
/// The CPU budget read from cgroup files: recorded v1 files of this machine (Recorded/README.md), and v2 layouts
/// written in the kernel's formats. Every case goes through the same <see cref="CpuBudget"/> detection as a real
/// process, with the file reading swapped.
/// </summary>
public sealed class CpuBudgetParsingTests
{
    private const string K8sContainer = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12ab.slice/cri-containerd-3f9c.scope";
    private const string K8sPod = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12ab.slice";

    private static readonly Func<string, string?> NoEnvironment = _ => null;

    private static string Recorded(string name) => Path.Combine(AppContext.BaseDirectory, "Budget", "Recorded", name);

    private static CpuBudget Detect(ICgroupFiles files, int allowedCount, Func<string, string?>? environment = null, int? runtimeCount = null) =>
        CpuBudget.DetectFrom(files, Enumerable.Range(0, allowedCount).ToArray(), environment ?? NoEnvironment, runtimeCount);

    [Fact]
    public void Recorded_v1_nested_group_takes_the_parents_quota_and_reads_throttling_where_the_quota_is()
    {
        var files = new RootedCgroupFiles(Recorded("v1-hybrid-nested"));

        CpuBudget budget = Detect(files, 2);

        Assert.Equal(1, budget.Cores);
        Assert.Equal(CpuBudgetLimit.Quota, budget.LimitedBy);
        Assert.Equal(1, budget.CgroupVersion);
        Assert.Equal("/sys/fs/cgroup/cpu/divcon-rec/inner", budget.CgroupDirectory);
        Assert.NotNull(budget.Quota);
        Assert.Equal("/sys/fs/cgroup/cpu/divcon-rec", budget.Quota.Directory);
        Assert.Equal(0.5, budget.Quota.Cpus);
        Assert.Equal(1, budget.Quota.Cores);
        Assert.Contains("equal to the cgroup cpuset (/sys/fs/cgroup/cpuset/cpuset.effective_cpus)", budget.AllowedProcessorsSource, StringComparison.Ordinal);
        Assert.Empty(budget.Notes);

        CpuThrottling? throttling = budget.ReadThrottling(files);
        Assert.Equal(new CpuThrottling(11, 10, TimeSpan.FromTicks(491068158 / 100), "/sys/fs/cgroup/cpu/divcon-rec/cpu.stat"), throttling);
        Assert.True(throttling!.WasThrottled);
    }

    [Fact]
    public void Recorded_v1_with_a_narrower_affinity_mask_says_so_and_the_mask_limits()
    {
        var files = new RootedCgroupFiles(Recorded("v1-hybrid-nested"));

        CpuBudget budget = CpuBudget.DetectFrom(files, [1], NoEnvironment, null);

        Assert.Equal(1, budget.Cores);
        Assert.Equal(CpuBudgetLimit.AllowedProcessors, budget.LimitedBy); // the quota rounds to 1, not below 1 processor
        Assert.Equal([1], budget.AllowedProcessors);
        Assert.Contains("narrower than the cgroup cpuset 0-1", budget.AllowedProcessorsSource, StringComparison.Ordinal);
    }

    [Fact]
    public void V2_kubernetes_container_takes_the_tightest_quota_on_the_way_up()
    {
        InMemoryCgroupFiles files = InMemoryCgroupFiles.UnifiedV2(K8sContainer)
            .With("/sys/fs/cgroup" + K8sContainer + "/cpu.max", "150000 100000\n")
            .With("/sys/fs/cgroup" + K8sPod + "/cpu.max", "200000 100000\n")
            .With("/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/cpu.max", "max 100000\n")
            .With("/sys/fs/cgroup" + K8sPod + "/cpu.stat", "usage_usec 10\nnr_periods 40\nnr_throttled 12\nthrottled_usec 512000\n")
            .With("/sys/fs/cgroup" + K8sContainer + "/cpu.stat", "usage_usec 9\nuser_usec 8\nsystem_usec 1\nnr_periods 30\nnr_throttled 7\nthrottled_usec 250000\nnr_bursts 0\nburst_usec 0\n");

        CpuBudget budget = Detect(files, 64);

        Assert.Equal(2, budget.Cores);
        Assert.Equal(CpuBudgetLimit.Quota, budget.LimitedBy);
        Assert.Equal(2, budget.CgroupVersion);
        Assert.Equal("/sys/fs/cgroup" + K8sContainer, budget.CgroupDirectory);
        Assert.Equal(1.5, budget.Quota!.Cpus);
        Assert.Equal("/sys/fs/cgroup" + K8sContainer, budget.Quota.Directory);
        Assert.Equal("/sys/fs/cgroup" + K8sContainer + "/cpu.max (cgroup v2)", budget.Quota.Source);
        Assert.Empty(budget.Notes);
        Assert.Equal(new CpuThrottling(30, 7, TimeSpan.FromMilliseconds(250), "/sys/fs/cgroup" + K8sContainer + "/cpu.stat"), budget.ReadThrottling(files));
    }

    [Fact]
    public void V2_parent_quota_tighter_than_the_leaf_wins()
    {
        InMemoryCgroupFiles files = InMemoryCgroupFiles.UnifiedV2("/app.slice/worker")
            .With("/sys/fs/cgroup/app.slice/worker/cpu.max", "max 100000\n")
            .With("/sys/fs/cgroup/app.slice/cpu.max", "25000 50000\n");

        CpuBudget budget = Detect(files, 8);

        Assert.Equal(1, budget.Cores);
        Assert.Equal("/sys/fs/cgroup/app.slice", budget.Quota!.Directory);
        Assert.Equal(0.5, budget.Quota.Cpus);
    }

    [Fact]
    public void V2_max_everywhere_means_no_quota()
    {
        InMemoryCgroupFiles files = InMemoryCgroupFiles.UnifiedV2("/user.slice/session-1.scope")
            .With("/sys/fs/cgroup/user.slice/session-1.scope/cpu.max", "max 100000\n")
            .With("/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");

        CpuBudget budget = Detect(files, 4);

        Assert.Equal(4, budget.Cores);
        Assert.Equal(CpuBudgetLimit.AllowedProcessors, budget.LimitedBy);
        Assert.Null(budget.Quota);
        Assert.Empty(budget.Notes);
    }

    [Fact]
    public void V2_without_the_cpu_controller_has_no_quota_and_says_why()
    {
        InMemoryCgroupFiles files = InMemoryCgroupFiles.UnifiedV2("/system.slice/app.service");

        CpuBudget budget = Detect(files, 4);

        Assert.Equal(4, budget.Cores);
        Assert.Null(budget.Quota);
        Assert.Null(budget.ReadThrottling(files));
        string note = Assert.Single(budget.Notes);
        Assert.Contains("not enabled", note, StringComparison.Ordinal);
        Assert.Contains("/sys/fs/cgroup/system.slice/app.service", note, StringComparison.Ordinal);
    }

    [Fact]
    public void V1_docker_container_whose_mount_root_is_its_own_cgroup()
    {
        // Docker on cgroup v1 without a cgroup namespace: the container sees its cgroup mounted as the root of the
        // hierarchy, while /proc/self/cgroup still names the host path.
        var files = new InMemoryCgroupFiles()
            .With("/proc/self/mountinfo",
                "812 811 0:99 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=755\n"
                + "815 812 0:29 /docker/87ee2de57e51 /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:11 - cgroup cgroup rw,cpu,cpuacct\n"
                + "816 812 0:31 /docker/87ee2de57e51 /sys/fs/cgroup/cpuset ro,nosuid,nodev,noexec,relatime master:13 - cgroup cgroup rw,cpuset\n")
            .With("/proc/self/cgroup", "12:cpuset:/docker/87ee2de57e51\n4:cpu,cpuacct:/docker/87ee2de57e51\n1:name=systemd:/docker/87ee2de57e51\n0::/system.slice/containerd.service\n")
            .With("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "100000\n")
            .With("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n")
            .With("/sys/fs/cgroup/cpuset/cpuset.effective_cpus", "0-7\n");

        CpuBudget budget = Detect(files, 8);

        Assert.Equal("/sys/fs/cgroup/cpu,cpuacct", budget.CgroupDirectory);
        Assert.Equal(1, budget.Cores);
        Assert.Equal(CpuBudgetLimit.Quota, budget.LimitedBy);
        Assert.Contains("equal to the cgroup cpuset", budget.AllowedProcessorsSource, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(50000, 100000, 1)]
    [InlineData(100000, 100000, 1)]
    [InlineData(100001, 100000, 2)]
    [InlineData(150000, 100000, 2)]
    [InlineData(250000, 100000, 3)]
    [InlineData(400000, 100000, 4)]
    [InlineData(1000, 1000000, 1)]
    [InlineData(1, 1000, 1)]
    [InlineData(6400000, 100000, 64)]
    public void Fractional_quotas_round_up_to_at_least_one_core(long quota, long period, int expected)
    {
        var files = new InMemoryCgroupFiles()
            .With("/proc/self/mountinfo", "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n")
            .With("/proc/self/cgroup", "1:cpu:/job\n")
            .With("/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", quota + "\n")
            .With("/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", period + "\n");

        CpuBudget budget = Detect(files, 128);

        Assert.Equal(expected, budget.Quota!.Cores);
        Assert.Equal(expected, budget.Cores);
        Assert.Equal((double)quota / period, budget.Quota.Cpus, 12);
    }

    [Theory]
    [InlineData("abc", "100000", "cpu.cfs_quota_us holds 'abc'")]
    [InlineData("50000", "0", "cpu.cfs_period_us holds '0'")]
    [InlineData("50000", "-100000", "cpu.cfs_period_us holds '-100000'")]
    [InlineData("50000", "", "cpu.cfs_period_us holds ''")]
    public void Malformed_v1_files_are_noted_and_treated_as_unlimited(string quota, string period, string expectedNote)
    {
        var files = new InMemoryCgroupFiles()
            .With("/proc/self/mountinfo", "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n")
            .With("/proc/self/cgroup", "1:cpu:/\n")
            .With("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", quota)
            .With("/sys/fs/cgroup/cpu/cpu.cfs_period_us", period);

        CpuBudget budget = Detect(files, 2);

        Assert.Null(budget.Quota);
        Assert.Equal(2, budget.Cores);
        Assert.Contains(budget.Notes, n => n.Contains(expectedNote, StringComparison.Ordinal) && n.Contains("treated as unlimited", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("150000")]
    [InlineData("max")]
    [InlineData("")]
    [InlineData("max abc")]
    [InlineData("-5 100000")]
    [InlineData("0 100000")]
    [InlineData("1.5 1")]
    [InlineData("150000 100000 7")]
    public void Malformed_cpu_max_is_noted_and_the_next_level_still_counts(string text)
    {
        InMemoryCgroupFiles files = InMemoryCgroupFiles.UnifiedV2("/a/b")
            .With("/sys/fs/cgroup/a/b/cpu.max", text)
            .With("/sys/fs/cgroup/a/cpu.max", "300000 100000");

        CpuBudget budget = Detect(files, 8);

        Assert.Equal(3, budget.Cores);
        Assert.Equal("/sys/fs/cgroup/a", budget.Quota!.Directory);
        Assert.Contains(budget.Notes, n => n.StartsWith("/sys/fs/cgroup/a/b: cpu.max holds", StringComparison.Ordinal));
    }

    [Fact]
    public void Without_cgroup_files_the_mask_decides_and_the_note_says_why()
    {
        CpuBudget budget = Detect(new InMemoryCgroupFiles(), 3);

        Assert.Equal(3, budget.Cores);
        Assert.Equal(CpuBudgetLimit.AllowedProcessors, budget.LimitedBy);
        Assert.Null(budget.CgroupDirectory);
        Assert.Null(budget.ReadThrottling(new InMemoryCgroupFiles()));
        Assert.Contains(budget.Notes, n => n.Contains("/proc/self/mountinfo is not readable", StringComparison.Ordinal));
    }

    [Fact]
    public void A_v1_machine_without_the_cpu_controller_mounted_has_no_quota()
    {
        var files = new InMemoryCgroupFiles()
            .With("/proc/self/mountinfo", "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n")
            .With("/proc/self/cgroup", "4:memory:/x\n");

        CpuBudget budget = Detect(files, 2);

        Assert.Null(budget.CgroupVersion);
        Assert.Contains(budget.Notes, n => n.Contains("No cgroup hierarchy with the cpu controller", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("DOTNET_PROCESSOR_COUNT", "3", 3, CpuBudgetLimit.ProcessorCountVariable)]
    [InlineData("DOTNET_PROCESSOR_COUNT", " 1 ", 1, CpuBudgetLimit.ProcessorCountVariable)]
    [InlineData("COMPlus_PROCESSOR_COUNT", "6", 6, CpuBudgetLimit.ProcessorCountVariable)]
    [InlineData("DOTNET_PROCESSOR_COUNT", "0", 1, CpuBudgetLimit.Quota)]
    [InlineData("DOTNET_PROCESSOR_COUNT", "65536", 1, CpuBudgetLimit.Quota)]
    [InlineData("DOTNET_PROCESSOR_COUNT", "0x4", 1, CpuBudgetLimit.Quota)]
    [InlineData("DOTNET_PROCESSOR_COUNT", "-2", 1, CpuBudgetLimit.Quota)]
    public void The_processor_count_variable_takes_precedence_when_valid(string name, string value, int expected, CpuBudgetLimit limit)
    {
        var files = new RootedCgroupFiles(Recorded("v1-hybrid-nested"));

        CpuBudget budget = Detect(files, 2, n => n == name ? value : null);

        Assert.Equal(expected, budget.Cores);
        Assert.Equal(limit, budget.LimitedBy);
        if (limit == CpuBudgetLimit.ProcessorCountVariable)
        {
            Assert.Equal($"{name}={expected}", budget.ProcessorCountOverrideSource);
        }
        else
        {
            Assert.Null(budget.ProcessorCountOverride);
            Assert.Contains(budget.Notes, n => n.StartsWith($"{name}='{value}' is ignored", StringComparison.Ordinal));
        }
    }

    [Fact]
    public void Outside_Linux_the_runtimes_processor_count_can_lower_the_budget()
    {
        CpuBudget budget = Detect(new InMemoryCgroupFiles(), 8, runtimeCount: 2);

        Assert.Equal(2, budget.Cores);
        Assert.Equal(CpuBudgetLimit.RuntimeProcessorCount, budget.LimitedBy);
    }

    [Fact]
    public void Mountinfo_decodes_escapes_and_skips_malformed_lines()
    {
        var notes = new List<string>();
        IReadOnlyList<Cgroup.Mount> mounts = Cgroup.ParseMountInfo(
            "40 31 0:37 /a\\040b /mnt/my\\040cgroups rw,relatime shared:9 - cgroup2 cgroup2 rw\n"
            + "garbage line\n"
            + "41 31 0:38 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n",
            notes);

        Assert.Equal(2, mounts.Count);
        Assert.Equal("/a b", mounts[0].Root);
        Assert.Equal("/mnt/my cgroups", mounts[0].MountPoint);
        Assert.Equal("cgroup2", mounts[0].FileSystemType);
        Assert.Equal(["rw", "cpu", "cpuacct"], mounts[1].SuperOptions);
        Assert.Contains(notes, n => n.Contains("'garbage line'", StringComparison.Ordinal));
    }

    [Fact]
    public void Proc_cgroup_keeps_colons_in_paths_and_skips_malformed_lines()
    {
        var notes = new List<string>();
        IReadOnlyList<Cgroup.Membership> members = Cgroup.ParseProcCgroup("3:cpu,cpuacct:/odd:name\nx:cpu:/a\n0::/\n5:cpu\n", notes);

        Assert.Equal(2, members.Count);
        Assert.Equal(["cpu", "cpuacct"], members[0].Controllers);
        Assert.Equal("/odd:name", members[0].Path);
        Assert.Empty(members[1].Controllers);
        Assert.Equal(2, notes.Count);
    }

    [Theory]
    [InlineData("/", "/sys/fs/cgroup/cpu", "/", "/sys/fs/cgroup/cpu")]
    [InlineData("/", "/sys/fs/cgroup/cpu", "/a/b/", "/sys/fs/cgroup/cpu/a/b")]
    [InlineData("/docker/abc", "/sys/fs/cgroup/cpu", "/docker/abc/app", "/sys/fs/cgroup/cpu/app")]
    [InlineData("/docker/abc", "/sys/fs/cgroup/cpu", "/docker/abcdef", "/sys/fs/cgroup/cpu/docker/abcdef")]
    [InlineData("/docker/abc", "/sys/fs/cgroup/cpu", "/other", "/sys/fs/cgroup/cpu/other")]
    public void The_cgroup_directory_joins_the_mount_and_the_path_as_the_runtime_does(string root, string mountPoint, string path, string expected)
    {
        Assert.Equal(expected, Cgroup.ResolveDirectory(new Cgroup.Mount(root, mountPoint, "cgroup", ["cpu"]), path));
    }

    [Fact]
    public void Directories_are_walked_from_the_process_up_to_the_mount_point()
    {
        var location = new Cgroup.Location(1, "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu/a/b");
        Assert.Equal(["/sys/fs/cgroup/cpu/a/b", "/sys/fs/cgroup/cpu/a", "/sys/fs/cgroup/cpu"], location.DirectoriesUpToMount());
        Assert.Equal(["/sys/fs/cgroup"], new Cgroup.Location(2, "/sys/fs/cgroup", "/sys/fs/cgroup").DirectoriesUpToMount());
    }

    [Fact]
    public void Cpu_stat_of_both_versions_and_a_root_without_bandwidth_counters()
    {
        Assert.Equal((11L, 10L, TimeSpan.FromTicks(4910681)), Cgroup.ParseCpuStat("nr_periods 11\nnr_throttled 10\nthrottled_time 491068158\n", out _));
        Assert.Equal((40L, 12L, TimeSpan.FromMilliseconds(512)), Cgroup.ParseCpuStat("usage_usec 7\nnr_periods 40\r\nnr_throttled 12\nthrottled_usec 512000\n", out _));

        // The root of this machine's cgroup2 hierarchy, recorded: usage only, no bandwidth control at the root.
        Assert.Null(Cgroup.ParseCpuStat("usage_usec 414027282\nuser_usec 361490275\nsystem_usec 52537006\nnice_usec 0\n", out string? problem));
        Assert.Contains("no nr_periods", problem, StringComparison.Ordinal);
        Assert.Null(Cgroup.ParseCpuStat("nr_periods x\nnr_throttled 1\nthrottled_time 5\n", out _));
    }

    [Fact]
    public void Throttling_difference_subtracts_each_counter_and_refuses_unrelated_readings()
    {
        var before = new CpuThrottling(10, 2, TimeSpan.FromMilliseconds(30), "/cg/cpu.stat");
        var after = new CpuThrottling(25, 9, TimeSpan.FromMilliseconds(130), "/cg/cpu.stat");

        CpuThrottling run = after - before;

        Assert.Equal(new CpuThrottling(15, 7, TimeSpan.FromMilliseconds(100), "/cg/cpu.stat"), run);
        Assert.True(run.WasThrottled);
        Assert.False((before - before).WasThrottled);
        Assert.Throws<ArgumentException>(() => after.Since(before with { Source = "/other/cpu.stat" }));
        Assert.Throws<ArgumentException>(() => before.Since(after));
        Assert.Equal("throttled in 7 of 15 periods, 0.100 s (/cg/cpu.stat)", run.ToString());
    }

    [Fact]
    public void Pinned_pools_under_a_quota_pack_their_processors_into_one_cache_group()
    {
        CpuBudget budget = Budget(cores: 3, allowed: 8);

        Assert.Equal([0, 1, 2], budget.SelectProcessors(() => CpuTopology.Uniform(8, 2, 2)));
        Assert.Equal([4, 5, 6], (budget with { AllowedProcessors = [4, 5, 6, 7, 0] }).SelectProcessors(() => CpuTopology.Uniform(8, 2, 2)));
        Assert.Equal(Enumerable.Range(0, 8), Budget(cores: 8, allowed: 8).SelectProcessors(() => throw new InvalidOperationException("sysfs must not be read")));
    }

    [Fact]
    public void Worker_counts_over_the_budget_get_a_warning_that_names_the_cause()
    {
        CpuBudget budget = Budget(cores: 1, allowed: 2) with { Quota = new CpuQuota(100000, 100000, "/sys/fs/cgroup/cpu/job", 1) };

        Assert.Null(budget.CheckWorkers(1));
        string warning = budget.CheckWorkers(2)!;
        Assert.StartsWith("2 workers exceed the CPU budget of 1 (the CPU quota, 1.00 CPU rounded up to 1, is below the 2 allowed processors)", warning, StringComparison.Ordinal);
        Assert.Contains("throttle", warning, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_gives_each_figure_with_its_source()
    {
        var files = new RootedCgroupFiles(Recorded("v1-hybrid-nested"));

        IReadOnlyList<string> lines = Detect(files, 2).Describe();

        Assert.Equal(
            [
                "allowed processors: 0-1 (2), from the process affinity mask (sched_getaffinity), equal to the cgroup cpuset (/sys/fs/cgroup/cpuset/cpuset.effective_cpus)",
                "CPU quota: 0.50 CPU (50000 µs per 100000 µs) in /sys/fs/cgroup/cpu/divcon-rec/cpu.cfs_quota_us, cpu.cfs_period_us (cgroup v1)",
                "DOTNET_PROCESSOR_COUNT: not set",
                "budget: 1 core: the CPU quota, 0.50 CPU rounded up to 1, is below the 2 allowed processors",
            ],
            lines);
    }

    [Fact]
    public void This_process_agrees_with_the_runtime_unless_a_parent_cgroup_holds_the_quota()
    {
        CpuBudget budget = CpuBudget.Detect();

        Assert.InRange(budget.Cores, 1, Math.Max(1, budget.AllowedProcessors.Count));
        bool parentQuota = budget.Quota is not null && budget.Quota.Directory != budget.CgroupDirectory;
        if (!parentQuota)
        {
            // The runtime's Environment.ProcessorCount follows the same rule on the process's own cgroup.
            Assert.Equal(Environment.ProcessorCount, budget.Cores);
        }
    }

    internal static CpuBudget Budget(int cores, int allowed) => new()
    {
        Cores = cores,
        LimitedBy = cores < allowed ? CpuBudgetLimit.Quota : CpuBudgetLimit.AllowedProcessors,
        AllowedProcessors = Enumerable.Range(0, allowed).ToArray(),
    };
}
