using DivCon.Metrics.Throttling;
using DivCon.Scheduling;

namespace DivCon.Harness.Throttling;

/// <summary>
/// The cgroup throttling counters read around one timed run or phase: <see cref="Open"/> just before its clock starts,
/// the function it returns just after it stops, so that the sample covers the same interval as the time it goes with.
/// Each reading is one small file read (<c>cpu.stat</c>), negligible beside a run.
/// </summary>
/// <remarks>
/// Nothing here throws for the machine's sake: where there is no cgroup to read (the reading returns null)
/// or the two readings do not subtract (the group was recreated between them), the sample is null, meaning "not
/// measured", which reports say apart from "not throttled".
/// </remarks>
public static class ThrottlingWindow
{
    /// <summary>
    /// Takes the first reading with <paramref name="read"/> (normally <see cref="CpuBudget.ReadThrottling()"/>); the
    /// returned function takes the second and gives what was counted in between, or null when it cannot be known.
    /// </summary>
    public static Func<ThrottlingSample?> Open(Func<CpuThrottling?> read)
    {
        ArgumentNullException.ThrowIfNull(read);
        CpuThrottling? before = read();
        return () =>
        {
            if (before is null || read() is not { } after)
            {
                return null;
            }

            try
            {
                return ThrottlingSample.From(after - before);
            }
            catch (ArgumentException)
            {
                return null; // another file, or counters that went backwards: the group was recreated in between
            }
        };
    }
}
