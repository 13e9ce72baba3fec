using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace DivCon.JobServer;

/// <summary>
/// Linux: the CPU time of another thread of this process, exact to the nanosecond (<c>clock_gettime</c> on the thread's
/// CPU-time clock, which brings a thread running on another processor up to date first; <c>/proc/.../schedstat</c> can
/// lag a running thread by a scheduler tick, 4 ms here), and whether the thread is runnable (<c>/proc/self/task/TID/stat</c>
/// state R: running or waiting for a processor; S or D: sleeping, e.g. a parked worker).
/// </summary>
[SupportedOSPlatform("linux")]
internal static partial class ThreadCpuClock
{
    [StructLayout(LayoutKind.Sequential)]
    private struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clockId, out Timespec time);

    /// <summary>The thread's CPU time in nanoseconds, or null (no such thread, or not Linux).</summary>
    public static long? CpuNs(int tid)
    {
        // The kernel's per-thread scheduler clock: MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) = (~tid << 3) | 4 | 2.
        int clock = (int)(~(uint)tid << 3) | 6;
        return ClockGetTime(clock, out Timespec t) == 0 ? (t.Seconds * 1_000_000_000L) + t.Nanoseconds : null;
    }

    /// <summary>True when the thread is running or waiting for a processor (state R); null when it cannot be read.</summary>
    public static bool? IsRunnable(int tid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/self/task/{tid}/stat");
            int close = stat.LastIndexOf(')');
            return close >= 0 && close + 2 < stat.Length ? stat[close + 2] == 'R' : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
