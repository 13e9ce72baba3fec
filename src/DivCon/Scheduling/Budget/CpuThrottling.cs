using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// The CFS throttling counters of a cgroup (<c>cpu.stat</c>), cumulative since the cgroup was created. Read one
/// before and one after a measured run (<see cref="CpuBudget.ReadThrottling()"/>) and subtract them
/// (<see cref="Since"/>, or <c>after - before</c>): a run whose difference <see cref="WasThrottled"/> lost time to
/// the quota, not to the program.
/// </summary>
/// <param name="Periods">Enforcement periods that have elapsed with the group runnable (<c>nr_periods</c>).</param>
/// <param name="ThrottledPeriods">Periods in which the group used up its quota and was stopped (<c>nr_throttled</c>).</param>
/// <param name="ThrottledTime">
/// Total time the group's threads were held back (<c>throttled_time</c>, ns, in v1; <c>throttled_usec</c> in v2). It
/// adds up over threads: two threads throttled for the same 10 ms count 20 ms.
/// </param>
/// <param name="Source">The <c>cpu.stat</c> file read.</param>
public sealed record CpuThrottling(long Periods, long ThrottledPeriods, TimeSpan ThrottledTime, string Source)
{
    /// <summary>True when at least one period was throttled.</summary>
    public bool WasThrottled => ThrottledPeriods > 0 || ThrottledTime > TimeSpan.Zero;

    /// <summary>Reads the counters of the cgroup that limits this process now; null where there is none (see <see cref="CpuBudget.ReadThrottling()"/>).</summary>
    public static CpuThrottling? ReadCurrent() => CpuBudget.Detect().ReadThrottling();

    /// <summary>The counters accumulated between <paramref name="earlier"/> and this reading.</summary>
    /// <param name="earlier">A reading of the same file, taken before this one.</param>
    /// <exception cref="ArgumentException">
    /// The readings come from different files, or a counter went backwards (the cgroup was removed and created again
    /// between them): the difference would mean nothing.
    /// </exception>
    public CpuThrottling Since(CpuThrottling earlier)
    {
        ArgumentNullException.ThrowIfNull(earlier);
        if (earlier.Source != Source)
        {
            throw new ArgumentException($"The readings come from different cgroups ({earlier.Source} and {Source}); their difference means nothing.", nameof(earlier));
        }

        if (earlier.Periods > Periods || earlier.ThrottledPeriods > ThrottledPeriods || earlier.ThrottledTime > ThrottledTime)
        {
            throw new ArgumentException(
                $"The counters of {Source} went backwards ({earlier} then {this}): the cgroup was recreated between the readings.", nameof(earlier));
        }

        return new CpuThrottling(Periods - earlier.Periods, ThrottledPeriods - earlier.ThrottledPeriods, ThrottledTime - earlier.ThrottledTime, Source);
    }

    /// <summary>The difference of two readings: <c>later.Since(earlier)</c>.</summary>
    public static CpuThrottling operator -(CpuThrottling later, CpuThrottling earlier)
    {
        ArgumentNullException.ThrowIfNull(later);
        return later.Since(earlier);
    }

    /// <summary>E.g. "throttled in 12 of 40 periods, 0.512 s (/sys/fs/cgroup/cpu/app/cpu.stat)".</summary>
    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture, $"throttled in {ThrottledPeriods} of {Periods} periods, {ThrottledTime.TotalSeconds:0.000} s ({Source})");

    /// <summary>Reads <c>cpu.stat</c> in <paramref name="directory"/>; null, with a note, when it has no throttling counters.</summary>
    internal static CpuThrottling? Read(ICgroupFiles files, string directory, List<string>? notes)
    {
        string path = directory.TrimEnd('/') + "/cpu.stat";
        string? text = files.ReadText(path);
        if (text is null)
        {
            notes?.Add($"{path} is not readable.");
            return null;
        }

        var counters = Cgroup.ParseCpuStat(text, out string? problem);
        if (counters is not { } c)
        {
            notes?.Add($"{path}: {problem}.");
            return null;
        }

        return new CpuThrottling(c.Periods, c.Throttled, c.ThrottledTime, path);
    }
}
