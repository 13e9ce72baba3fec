using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// A CFS bandwidth quota of a cgroup: the group's threads together may run <see cref="QuotaMicroseconds"/> of CPU
/// time in every <see cref="PeriodMicroseconds"/>, then the kernel throttles them until the next period. A
/// Kubernetes <c>limits.cpu: 1.5</c> becomes a quota of 150000 µs per 100000 µs.
/// </summary>
/// <param name="QuotaMicroseconds">CPU time allowed per period (v1 <c>cpu.cfs_quota_us</c>, v2 first field of <c>cpu.max</c>).</param>
/// <param name="PeriodMicroseconds">The period (v1 <c>cpu.cfs_period_us</c>, v2 second field of <c>cpu.max</c>).</param>
/// <param name="Directory">The cgroup directory holding the quota: the process's own, or the ancestor with the tightest quota.</param>
/// <param name="CgroupVersion">1 or 2.</param>
public sealed record CpuQuota(long QuotaMicroseconds, long PeriodMicroseconds, string Directory, int CgroupVersion)
{
    /// <summary>The quota in CPUs (quota / period), e.g. 1.5.</summary>
    public double Cpus => (double)QuotaMicroseconds / PeriodMicroseconds;

    /// <summary>
    /// The quota as a whole number of cores by the .NET runtime's rule (<c>ComputeCpuLimit</c> in the runtime's
    /// <c>cgroup.cpp</c>): rounded up, and at least 1. 1.5 CPUs give 2, 0.5 gives 1.
    /// </summary>
    public int Cores => QuotaMicroseconds <= PeriodMicroseconds
        ? 1
        : (int)Int128.Min(int.MaxValue, ((Int128)QuotaMicroseconds + PeriodMicroseconds - 1) / PeriodMicroseconds);

    /// <summary>The file(s) the quota was read from.</summary>
    public string Source => CgroupVersion == 1
        ? $"{Directory}/cpu.cfs_quota_us, cpu.cfs_period_us (cgroup v1)"
        : $"{Directory}/cpu.max (cgroup v2)";

    /// <summary>E.g. "1.50 CPU (150000 µs per 100000 µs) in /sys/fs/cgroup/cpu/app/cpu.cfs_quota_us, cpu.cfs_period_us (cgroup v1)".</summary>
    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture, $"{Cpus:0.00} CPU ({QuotaMicroseconds} µs per {PeriodMicroseconds} µs) in {Source}");

    /// <summary>Whether this quota allows less CPU than <paramref name="other"/> (exact: compares quota × period products).</summary>
    internal bool IsTighterThan(CpuQuota other) =>
        (Int128)QuotaMicroseconds * other.PeriodMicroseconds < (Int128)other.QuotaMicroseconds * PeriodMicroseconds;
}
