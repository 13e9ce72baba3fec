using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// Which processors this process may run on, and pinning of the calling thread to one of them
/// (Linux <c>sched_setaffinity</c>, Windows <c>SetThreadAffinityMask</c>).
/// </summary>
/// <remarks>
/// <para>
/// <b>The process mask.</b> Linux has no process-wide affinity: every thread has its own mask, and
/// <c>sched_getaffinity(0, …)</c> reads the <i>calling thread's</i>. <see cref="GetProcessAffinity"/> therefore
/// reads the mask of the thread whose id is the process id (the main thread), which is the mask the process was
/// started with: <c>taskset -c</c> sets it, a cgroup cpuset (container <c>--cpuset-cpus</c>) restricts it, and the
/// .NET runtime itself treats it as "the process mask" (it resets each new thread to it). It is read on each call,
/// not cached, so a cpuset change made while the process runs is seen. Never pin the main thread, or the process
/// mask becomes that one processor; pin dedicated threads only, never thread-pool threads.
/// </para>
/// <para>
/// <b>Pinning.</b> The runtime resets a new thread's affinity to the process mask when the thread starts, so
/// <see cref="PinCurrentThread"/> must be called from inside the thread's own body, as its first statement. Only
/// dedicated threads may be pinned: a thread-pool thread is refused, since its pin would outlive the work item.
/// </para>
/// <para>
/// On Windows only the processors of one processor group (at most 64; ids are group-relative) are reported and can
/// be pinned: the process's group, or the calling thread's when the process spans several. On other platforms there
/// is no affinity API: <see cref="GetProcessAffinity"/> reports 0..<see cref="Environment.ProcessorCount"/>-1 (no
/// mask can restrict the process there) and pinning throws <see cref="PlatformNotSupportedException"/>.
/// </para>
/// </remarks>
public static partial class ThreadAffinity
{
    /// <summary>Whether threads can be pinned here: <see langword="true"/> on Linux and Windows.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() || OperatingSystem.IsWindows();

    /// <summary>
    /// The processors this process may run on, ascending: the process affinity mask (honouring <c>taskset</c> and
    /// cgroup cpusets), not 0..<see cref="Environment.ProcessorCount"/>-1. See the type's remarks for how it is read.
    /// </summary>
    /// <exception cref="System.ComponentModel.Win32Exception">The operating system refused to report the mask.</exception>
    public static IReadOnlyList<int> GetProcessAffinity()
    {
        if (OperatingSystem.IsLinux())
        {
            return Linux.GetAffinity(Environment.ProcessId);
        }

        if (OperatingSystem.IsWindows())
        {
            return Windows.GetProcessAffinity();
        }

        return Enumerable.Range(0, Environment.ProcessorCount).ToArray();
    }

    /// <summary>
    /// The processors the calling thread may run on, ascending. Where pinning is not supported this is
    /// <see cref="GetProcessAffinity"/>: nothing can restrict a single thread there.
    /// </summary>
    /// <exception cref="System.ComponentModel.Win32Exception">The operating system refused to report the mask.</exception>
    public static IReadOnlyList<int> GetCurrentThreadAffinity()
    {
        if (OperatingSystem.IsLinux())
        {
            return Linux.GetAffinity(0);
        }

        if (OperatingSystem.IsWindows())
        {
            return Windows.GetCurrentThreadAffinity();
        }

        return GetProcessAffinity();
    }

    /// <summary>
    /// Pins the calling thread to one processor: from now on it runs only there. Call it as the first statement of a
    /// dedicated thread's body (see the type's remarks).
    /// </summary>
    /// <param name="processorId">A processor in <see cref="GetProcessAffinity"/>.</param>
    /// <exception cref="ArgumentException">The processor is not one this process may use; the message lists those it may.</exception>
    /// <exception cref="PlatformNotSupportedException">Neither Linux nor Windows (see <see cref="IsSupported"/>).</exception>
    /// <exception cref="InvalidOperationException">The calling thread is a thread-pool thread.</exception>
    /// <exception cref="System.ComponentModel.Win32Exception">The operating system refused the new mask.</exception>
    public static void PinCurrentThread(int processorId) =>
        SetCurrentThreadAffinity([processorId], nameof(processorId));

    /// <summary>
    /// Restricts the calling thread to a set of processors (several, unlike <see cref="PinCurrentThread"/>).
    /// Passing <see cref="GetProcessAffinity"/> undoes a pin.
    /// </summary>
    /// <param name="processorIds">Distinct processors, all in <see cref="GetProcessAffinity"/>.</param>
    /// <exception cref="ArgumentException">The set is empty, has a duplicate, or names a processor this process may not use.</exception>
    /// <exception cref="PlatformNotSupportedException">Neither Linux nor Windows (see <see cref="IsSupported"/>).</exception>
    /// <exception cref="InvalidOperationException">The calling thread is a thread-pool thread.</exception>
    /// <exception cref="System.ComponentModel.Win32Exception">The operating system refused the new mask.</exception>
    public static void SetCurrentThreadAffinity(IEnumerable<int> processorIds) =>
        SetCurrentThreadAffinity(processorIds, nameof(processorIds));

    /// <summary>
    /// Checks a set of processor ids a caller wants to use and returns them as a list, in the given order.
    /// </summary>
    /// <param name="ids">The requested processors.</param>
    /// <param name="paramName">The caller's parameter name, reported in the exception.</param>
    /// <returns>The ids, in the order given.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="ids"/> is null.</exception>
    /// <exception cref="ArgumentException">
    /// The set is empty, has a duplicate, a negative id, or an id outside <see cref="GetProcessAffinity"/>. The message
    /// lists every problem and the processors allowed, e.g.
    /// "processor 7 is not one this process may use; allowed: 0-1".
    /// </exception>
    public static IReadOnlyList<int> ValidateProcessors(IEnumerable<int> ids, string paramName) =>
        ValidateProcessors(ids, paramName, GetProcessAffinity());

    /// <summary><see cref="ValidateProcessors(IEnumerable{int}, string)"/> against an explicit allowed set (for tests).</summary>
    internal static IReadOnlyList<int> ValidateProcessors(IEnumerable<int> ids, string paramName, IReadOnlyList<int> allowed)
    {
        ArgumentNullException.ThrowIfNull(ids, paramName);
        int[] list = ids.ToArray();
        string allowedText = CpuList.Format(allowed);
        if (list.Length == 0)
        {
            throw new ArgumentException(
                $"The processor set is empty; give at least one processor. Allowed: {allowedText}.", paramName);
        }

        var allowedSet = new HashSet<int>(allowed);
        var seen = new HashSet<int>();
        var problems = new List<string>();
        foreach (int id in list)
        {
            if (id < 0)
            {
                problems.Add($"processor {id.ToString(CultureInfo.InvariantCulture)} is negative");
            }
            else if (!seen.Add(id))
            {
                problems.Add($"processor {id.ToString(CultureInfo.InvariantCulture)} is given more than once");
            }
            else if (!allowedSet.Contains(id))
            {
                problems.Add($"processor {id.ToString(CultureInfo.InvariantCulture)} is not one this process may use");
            }
        }

        if (problems.Count > 0)
        {
            throw new ArgumentException(
                $"Invalid processor set {{{string.Join(",", list)}}}: {string.Join("; ", problems)}; allowed: {allowedText}.",
                paramName);
        }

        return list;
    }

    private static void SetCurrentThreadAffinity(IEnumerable<int> processorIds, string paramName)
    {
        if (!IsSupported)
        {
            throw new PlatformNotSupportedException(
                $"Pinning threads to processors is supported on Linux and Windows only, not on {System.Runtime.InteropServices.RuntimeInformation.OSDescription}.");
        }

        if (Thread.CurrentThread.IsThreadPoolThread)
        {
            // A pin outlives the work item: every later item on this pool thread would run pinned.
            throw new InvalidOperationException(
                "Only a dedicated thread (new Thread(…)) may change its affinity; the calling thread belongs to the thread pool, which would keep running other work on it pinned.");
        }

        IReadOnlyList<int> ids = ValidateProcessors(processorIds, paramName);
        if (OperatingSystem.IsLinux())
        {
            Linux.SetCurrentThreadAffinity(ids);
        }
        else if (OperatingSystem.IsWindows())
        {
            Windows.SetCurrentThreadAffinity(ids);
        }
    }
}
