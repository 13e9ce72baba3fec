using System.ComponentModel;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace DivCon.Scheduling;

public static partial class ThreadAffinity
{
    /// <summary>
    /// libc's <c>sched_getaffinity</c> / <c>sched_setaffinity</c>. A mask is an array of 64-bit words: processor n
    /// is bit n % 64 of word n / 64 (glibc's <c>cpu_set_t</c> layout on 64-bit Linux, 16 words = 1024 processors).
    /// The mask conversions are plain functions; everything that calls libc is marked Linux-only.
    /// </summary>
    internal static unsafe partial class Linux
    {
        /// <summary>glibc's <c>cpu_set_t</c>: 1024 bits.</summary>
        internal const int CpuSetWords = 16;

        /// <summary>Upper bound on the read buffer: 64 × 1024 bits, above any kernel's <c>NR_CPUS</c>.</summary>
        private const int MaxWords = CpuSetWords * 64;

        private const int EINVAL = 22;

        /// <summary>
        /// The affinity mask of thread <paramref name="tid"/> (0 = the calling thread; the process id = the main
        /// thread, which is what <see cref="GetProcessAffinity"/> reads).
        /// </summary>
        [SupportedOSPlatform("linux")]
        internal static int[] GetAffinity(int tid)
        {
            // The kernel fails with EINVAL when the buffer is smaller than its own mask (nr_cpu_ids bits), so start at
            // cpu_set_t's 1024 bits and double until it fits.
            for (int words = CpuSetWords; ; words *= 2)
            {
                ulong[] mask = new ulong[words];
                int result;
                fixed (ulong* p = mask)
                {
                    result = sched_getaffinity(tid, (nuint)(words * sizeof(ulong)), p);
                }

                if (result == 0)
                {
                    return ToProcessorIds(mask);
                }

                int errno = Marshal.GetLastPInvokeError();
                if (errno != EINVAL || words >= MaxWords)
                {
                    throw new Win32Exception(errno, $"sched_getaffinity({tid}) failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
                }
            }
        }

        /// <summary>Sets the calling thread's mask (<c>sched_setaffinity(0, …)</c>). The ids are already validated.</summary>
        [SupportedOSPlatform("linux")]
        internal static void SetCurrentThreadAffinity(IReadOnlyList<int> processorIds)
        {
            ulong[] mask = ToMask(processorIds);
            int result;
            fixed (ulong* p = mask)
            {
                result = sched_setaffinity(0, (nuint)(mask.Length * sizeof(ulong)), p);
            }

            if (result != 0)
            {
                int errno = Marshal.GetLastPInvokeError();
                throw new Win32Exception(
                    errno,
                    $"sched_setaffinity to processors {CpuList.Format(processorIds)} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
            }
        }

        /// <summary>The processor ids whose bits are set, ascending.</summary>
        internal static int[] ToProcessorIds(ReadOnlySpan<ulong> mask)
        {
            var ids = new List<int>();
            for (int word = 0; word < mask.Length; word++)
            {
                for (ulong bits = mask[word]; bits != 0; bits &= bits - 1)
                {
                    ids.Add((word * 64) + System.Numerics.BitOperations.TrailingZeroCount(bits));
                }
            }

            return ids.ToArray();
        }

        /// <summary>A mask with the given (non-negative) ids set, at least <see cref="CpuSetWords"/> words long.</summary>
        internal static ulong[] ToMask(IReadOnlyList<int> processorIds)
        {
            int max = processorIds.Count == 0 ? 0 : processorIds.Max();
            ulong[] mask = new ulong[Math.Max(CpuSetWords, (max / 64) + 1)];
            foreach (int id in processorIds)
            {
                mask[id / 64] |= 1UL << (id % 64);
            }

            return mask;
        }

        /// <summary>The processor the calling thread is running on now (<c>sched_getcpu</c>); -1 on failure.</summary>
        [SupportedOSPlatform("linux")]
        internal static int GetCurrentProcessor() => sched_getcpu();

        /// <summary>The kernel's id of the calling thread (<c>gettid</c>), as in <c>/proc/self/task/TID</c>.</summary>
        [SupportedOSPlatform("linux")]
        internal static int GetCurrentThreadId() => gettid();

        // pid_t is int on Linux; size_t is nuint. glibc returns 0 on success, -1 with errno on failure.
        [SupportedOSPlatform("linux")]
        [LibraryImport("libc", SetLastError = true)]
        private static partial int sched_getaffinity(int pid, nuint cpusetsize, ulong* mask);

        [SupportedOSPlatform("linux")]
        [LibraryImport("libc", SetLastError = true)]
        private static partial int sched_setaffinity(int pid, nuint cpusetsize, ulong* mask);

        [SupportedOSPlatform("linux")]
        [LibraryImport("libc")]
        private static partial int sched_getcpu();

        [SupportedOSPlatform("linux")]
        [LibraryImport("libc")]
        private static partial int gettid();
    }
}
